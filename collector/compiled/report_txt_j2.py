# Written by `python -m collector.compile_templates` from templates/report.txt.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'e7c6864ceebf65b324a990f225274569'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_path = resolve('path')
    l_0_i = resolve('i')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    yield 'Wrote '
    yield str((undefined(name='path') if l_0_path is missing else l_0_path))
    yield ': '
    yield str(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'issues'))
    yield ' issue'
    yield str(('s' if (environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'issues') != 1) else cond_expr_undefined("the inline if-expression on line 2 in 'report.txt.j2' evaluated to false and no else section was defined.")))
    yield ' of '
    yield str((environment.getattr(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'filters'), 'repo') or str_join((t_1(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'repos')), ' repositories', ))))
    if (environment.getattr(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'filters'), 'since') or environment.getattr(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'filters'), 'until')):
        pass
        yield ' ('
        yield str((environment.getattr(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'filters'), 'since') or '…'))
        yield ' to '
        yield str((environment.getattr(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'filters'), 'until') or 'now'))
        yield ')'
    yield ', '
    yield str(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'with_diagnosis'))
    yield ' with an environment diagnosis, '
    yield str(t_1(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'clusters')))
    yield ' duplicate cluster'
    yield str(('s' if (t_1(environment.getattr((undefined(name='i') if l_0_i is missing else l_0_i), 'clusters')) != 1) else cond_expr_undefined("the inline if-expression on line 2 in 'report.txt.j2' evaluated to false and no else section was defined.")))
    yield '.\n'

blocks = {}
debug_info = '2=20'

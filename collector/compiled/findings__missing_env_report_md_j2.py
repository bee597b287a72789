# Written by `python -m collector.compile_templates` from templates/findings/missing_env_report.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '2b94db6750b3ebee7f59e1fd23985dfa'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/missing_env_report.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    pass
    yield from context.blocks['title'][0](context)
    yield from context.blocks['fix'][0](context)

def block_title(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_damaged = resolve('damaged')
    pass
    if (undefined(name='damaged') if l_0_damaged is missing else l_0_damaged):
        pass
        yield 'The pasted environment report cannot be read'
    else:
        pass
        yield 'No environment report'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_damaged = resolve('damaged')
    try:
        t_1 = environment.filters['truncate']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'truncate' found.")
    pass
    if (undefined(name='damaged') if l_0_damaged is missing else l_0_damaged):
        pass
        yield 'It was changed or cut after it was generated ('
        yield str(t_1(environment, (undefined(name='damaged') if l_0_damaged is missing else l_0_damaged), 160))
        yield '). '
    yield 'Run `pip install envtriage && python -m collector > env.md` in the environment that fails and paste the contents of env.md here (it removes host names, user names, paths and tokens); or at least `python -m torch.utils.collect_env` and `nvidia-smi`.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=30'

# Written by `python -m collector.compile_templates` from templates/check.txt.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '76d9793d8ef68e003024f2aed6ce1ac3'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'check.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_loaded = resolve('loaded')
    l_0_findings = resolve('findings')
    try:
        t_1 = environment.filters['indent']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'indent' found.")
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_3 = environment.filters['wordwrap']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'wordwrap' found.")
    pass
    if (not (undefined(name='loaded') if l_0_loaded is missing else l_0_loaded)):
        pass
        yield 'envtriage: the diagnosis engine could not be loaded (see the log above); the report itself is complete.\n'
    elif (not (undefined(name='findings') if l_0_findings is missing else l_0_findings)):
        pass
        yield 'envtriage: no known environment problem found.\n'
    else:
        pass
        yield 'envtriage found '
        yield str(t_2((undefined(name='findings') if l_0_findings is missing else l_0_findings)))
        yield ' thing'
        yield str(('s' if (t_2((undefined(name='findings') if l_0_findings is missing else l_0_findings)) != 1) else cond_expr_undefined("the inline if-expression on line 7 in 'check.txt.j2' evaluated to false and no else section was defined.")))
        yield ' to look at, most likely cause first:\n'
        l_1_loop = missing
        for l_1_f, l_1_loop in LoopContext((undefined(name='findings') if l_0_findings is missing else l_0_findings), undefined):
            _loop_vars = {}
            pass
            yield '\n'
            yield str(environment.getattr(l_1_loop, 'index'))
            yield '. ['
            yield str(environment.getattr(l_1_f, 'severity'))
            yield '] '
            yield str(environment.getattr(l_1_f, 'title'))
            yield '\n   fix: '
            yield str(t_1(t_3(environment, environment.getattr(l_1_f, 'fix'), 100), 8))
            yield '\n'
            for l_2_line in environment.getattr(l_1_f, 'evidence'):
                _loop_vars = {}
                pass
                yield '   evidence: '
                yield str(l_2_line)
                yield '\n'
            l_2_line = missing
        l_1_loop = l_1_f = missing

blocks = {}
debug_info = '2=31&4=34&7=40&8=45&10=49&11=55&12=57&13=61'

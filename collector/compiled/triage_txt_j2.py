# Written by `python -m collector.compile_templates` from templates/triage.txt.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'c21a8641621afe8ede326b1c6c2b0ec7'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'triage.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_plan = resolve('plan')
    l_0_recorded = resolve('recorded')
    try:
        t_1 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_2 = environment.filters['indent']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'indent' found.")
    try:
        t_3 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_4 = environment.filters['wordwrap']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'wordwrap' found.")
    pass
    if environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'findings'):
        pass
        yield 'Findings (most likely cause first):\n'
        l_1_loop = missing
        for l_1_f, l_1_loop in LoopContext(environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'findings'), undefined):
            _loop_vars = {}
            pass
            yield '  '
            yield str(environment.getattr(l_1_loop, 'index'))
            yield '. ['
            yield str(environment.getattr(l_1_f, 'severity'))
            yield '] '
            yield str(environment.getattr(l_1_f, 'title'))
            yield str((str_join(('  (', environment.getattr(l_1_f, 'category'), ')', )) if environment.getattr(l_1_f, 'category') else cond_expr_undefined("the inline if-expression on line 6 in 'triage.txt.j2' evaluated to false and no else section was defined.")))
            yield '\n     fix: '
            yield str(t_2(t_4(environment, environment.getattr(l_1_f, 'fix'), 100), 10))
            yield '\n'
            for l_2_line in environment.getattr(l_1_f, 'evidence'):
                _loop_vars = {}
                pass
                yield '     evidence: '
                yield str(l_2_line)
                yield '\n'
            l_2_line = missing
        l_1_loop = l_1_f = missing
    else:
        pass
        yield 'No findings: nothing in this text points to an environment problem.\n'
    yield 'Labels: '
    yield str((t_3(context.eval_ctx, environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'labels'), ', ') if environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'labels') else '(none)'))
    yield '\nRead: '
    yield str((t_3(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'case'), 'formats'), ', ') if environment.getattr(environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'case'), 'formats') else 'nothing recognisable'))
    yield '\n'
    if environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'duplicates'):
        pass
        yield 'Possible duplicates:\n'
        for l_1_d in environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'duplicates'):
            _loop_vars = {}
            pass
            yield '  #'
            yield str(environment.getattr(l_1_d, 'number'))
            yield str((' (closed)' if (environment.getattr(l_1_d, 'state') == 'closed') else cond_expr_undefined("the inline if-expression on line 20 in 'triage.txt.j2' evaluated to false and no else section was defined.")))
            yield ' '
            yield str(environment.getattr(l_1_d, 'title'))
            yield '  score '
            yield str(t_1('%.2f', environment.getattr(l_1_d, 'score')))
            yield '\n'
            for l_2_line in environment.getattr(l_1_d, 'evidence'):
                _loop_vars = {}
                pass
                yield '     '
                yield str(l_2_line)
                yield '\n'
            l_2_line = missing
        l_1_d = missing
    if (undefined(name='recorded') if l_0_recorded is missing else l_0_recorded):
        pass
        yield 'Recorded as '
        yield str(environment.getattr((undefined(name='recorded') if l_0_recorded is missing else l_0_recorded), 'repo'))
        yield '#'
        yield str(environment.getattr((undefined(name='recorded') if l_0_recorded is missing else l_0_recorded), 'number'))
        yield '; that index now holds '
        yield str(environment.getattr((undefined(name='recorded') if l_0_recorded is missing else l_0_recorded), 'issues'))
        yield ' issue'
        yield str(('s' if (environment.getattr((undefined(name='recorded') if l_0_recorded is missing else l_0_recorded), 'issues') != 1) else cond_expr_undefined("the inline if-expression on line 27 in 'triage.txt.j2' evaluated to false and no else section was defined.")))
        yield '.\n'
    yield '\n'
    if environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'comment'):
        pass
        yield '--- the comment the bot would post ---\n'
        yield str(environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'comment'))
        yield '\n'
    else:
        pass
        yield '--- the bot would post no comment ---\n'

blocks = {}
debug_info = '3=37&5=41&6=45&7=52&8=54&9=58&15=66&16=68&17=70&19=73&20=77&21=84&22=88&26=92&27=95&30=104&32=107'

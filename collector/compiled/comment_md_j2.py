# Written by `python -m collector.compile_templates` from templates/comment.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'b4a104bf3ef2354d913204c71950db34'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'comment.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_findings = resolve('findings')
    l_0_more = resolve('more')
    l_0_duplicates = resolve('duplicates')
    l_0_facts = resolve('facts')
    l_0_reviewed = resolve('reviewed')
    l_0_icons = l_0_problems = missing
    try:
        t_1 = environment.filters['cell']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'cell' found.")
    try:
        t_2 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_3 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_4 = environment.filters['indent']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'indent' found.")
    try:
        t_5 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_6 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_7 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_8 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_9 = environment.filters['replace']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'replace' found.")
    pass
    l_0_icons = {'error': '❌', 'warning': '⚠️', 'info': 'ℹ️'}
    context.vars['icons'] = l_0_icons
    context.exported_vars.add('icons')
    l_0_problems = t_7(context.eval_ctx, t_8(context, (undefined(name='findings') if l_0_findings is missing else l_0_findings), 'severity', 'equalto', 'info'))
    context.vars['problems'] = l_0_problems
    context.exported_vars.add('problems')
    if (undefined(name='problems') if l_0_problems is missing else l_0_problems):
        pass
        yield '**envtriage** found '
        yield str(t_6((undefined(name='problems') if l_0_problems is missing else l_0_problems)))
        yield ' likely cause'
        yield str(('s' if (t_6((undefined(name='problems') if l_0_problems is missing else l_0_problems)) != 1) else cond_expr_undefined("the inline if-expression on line 8 in 'comment.md.j2' evaluated to false and no else section was defined.")))
        yield ' in this report'
        yield str((', most likely first' if (t_6((undefined(name='problems') if l_0_problems is missing else l_0_problems)) > 1) else cond_expr_undefined("the inline if-expression on line 8 in 'comment.md.j2' evaluated to false and no else section was defined.")))
        yield ':\n'
    else:
        pass
        yield '**envtriage** read this report:\n'
    yield '\n'
    l_1_loop = missing
    for l_1_f, l_1_loop in LoopContext((undefined(name='findings') if l_0_findings is missing else l_0_findings), undefined):
        l_1_evidence_lines = resolve('evidence_lines')
        _loop_vars = {}
        pass
        yield str(environment.getattr(l_1_loop, 'index'))
        yield '. '
        yield str(environment.getitem((undefined(name='icons') if l_0_icons is missing else l_0_icons), environment.getattr(l_1_f, 'severity')))
        yield ' **'
        yield str(environment.getattr(l_1_f, 'title'))
        yield '**'
        yield str((str_join((' `', environment.getattr(l_1_f, 'category'), '`', )) if environment.getattr(l_1_f, 'category') else cond_expr_undefined("the inline if-expression on line 14 in 'comment.md.j2' evaluated to false and no else section was defined.")))
        yield '\n\n   '
        yield str(t_4(environment.getattr(l_1_f, 'fix'), 3))
        yield '\n'
        if environment.getattr(l_1_f, 'evidence'):
            pass
            yield '\n   <details><summary>Evidence</summary>\n\n'
            for l_2_line in environment.getattr(l_1_f, 'evidence')[:(undefined(name='evidence_lines') if l_1_evidence_lines is missing else l_1_evidence_lines)]:
                _loop_vars = {}
                pass
                yield '   - '
                yield str(t_2(l_2_line))
                yield '\n'
            l_2_line = missing
            if (t_6(environment.getattr(l_1_f, 'evidence')) > (undefined(name='evidence_lines') if l_1_evidence_lines is missing else l_1_evidence_lines)):
                pass
                yield '   - …and '
                yield str((t_6(environment.getattr(l_1_f, 'evidence')) - (undefined(name='evidence_lines') if l_1_evidence_lines is missing else l_1_evidence_lines)))
                yield ' more\n'
            yield '\n   </details>\n'
        yield '\n'
    l_1_loop = l_1_f = l_1_evidence_lines = missing
    if ((undefined(name='more') if l_0_more is missing else l_0_more) > 0):
        pass
        yield '_'
        yield str((undefined(name='more') if l_0_more is missing else l_0_more))
        yield ' less likely finding'
        yield str(('s' if ((undefined(name='more') if l_0_more is missing else l_0_more) != 1) else cond_expr_undefined("the inline if-expression on line 33 in 'comment.md.j2' evaluated to false and no else section was defined.")))
        yield ' left out._\n\n'
    if (undefined(name='duplicates') if l_0_duplicates is missing else l_0_duplicates):
        pass
        yield '**Possibly the same problem as:**\n'
        for l_1_d in (undefined(name='duplicates') if l_0_duplicates is missing else l_0_duplicates):
            _loop_vars = {}
            pass
            yield '- #'
            yield str(environment.getattr(l_1_d, 'number'))
            yield str((' (closed)' if (environment.getattr(l_1_d, 'state') == 'closed') else cond_expr_undefined("the inline if-expression on line 39 in 'comment.md.j2' evaluated to false and no else section was defined.")))
            yield ' — '
            yield str(t_5(context.eval_ctx, environment.getattr(l_1_d, 'evidence'), '; '))
            yield ' (similarity '
            yield str(t_3('%.2f', environment.getattr(l_1_d, 'score')))
            yield ')\n'
        l_1_d = missing
        yield '\n'
    if (undefined(name='facts') if l_0_facts is missing else l_0_facts):
        pass
        yield '<details><summary>What envtriage read</summary>\n\n| | | Read from |\n|---|---|---|\n'
        for l_1_row in (undefined(name='facts') if l_0_facts is missing else l_0_facts):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.getattr(l_1_row, 'label'))
            yield ' | '
            yield str(t_9(context.eval_ctx, t_2(environment.getattr(l_1_row, 'value')), '|', '\\|'))
            yield ' | '
            yield str(t_1(t_2(environment.getattr(l_1_row, 'where'))))
            yield ' |\n'
        l_1_row = missing
        yield '\n</details>\n\n'
    yield "<sub>Checked against envtriage's compatibility matrix (reviewed "
    yield str((undefined(name='reviewed') if l_0_reviewed is missing else l_0_reviewed))
    yield '). Edit the issue or reply with a fresh `python -m collector` report and this comment updates itself.</sub>\n'

blocks = {}
debug_info = '5=71&6=74&7=77&8=80&13=91&14=95&16=103&17=105&21=108&22=112&24=115&25=118&32=123&33=126&36=130&38=133&39=137&43=146&49=149&50=153&56=162'

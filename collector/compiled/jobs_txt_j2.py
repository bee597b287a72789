# Written by `python -m collector.compile_templates` from templates/jobs.txt.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '2174b151db427a231f46dcd0179d9276'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'jobs.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_asked = resolve('asked')
    l_0_revived = resolve('revived')
    l_0_counts = resolve('counts')
    l_0_dead = resolve('dead')
    try:
        t_1 = environment.filters['dictsort']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'dictsort' found.")
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_3 = environment.filters['truncate']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'truncate' found.")
    pass
    if (undefined(name='asked') if l_0_asked is missing else l_0_asked):
        pass
        yield str((undefined(name='revived') if l_0_revived is missing else l_0_revived))
        yield ' dead letter'
        yield str(('s' if ((undefined(name='revived') if l_0_revived is missing else l_0_revived) != 1) else cond_expr_undefined("the inline if-expression on line 4 in 'jobs.txt.j2' evaluated to false and no else section was defined.")))
        yield ' put back in the queue; a running worker picks '
        yield str(('it' if ((undefined(name='revived') if l_0_revived is missing else l_0_revived) == 1) else 'them'))
        yield ' up within a minute.\n'
        if ((undefined(name='revived') if l_0_revived is missing else l_0_revived) < t_2((undefined(name='asked') if l_0_asked is missing else l_0_asked))):
            pass
            yield str((t_2((undefined(name='asked') if l_0_asked is missing else l_0_asked)) - (undefined(name='revived') if l_0_revived is missing else l_0_revived)))
            yield ' of the given ids '
            yield str(('is' if ((t_2((undefined(name='asked') if l_0_asked is missing else l_0_asked)) - (undefined(name='revived') if l_0_revived is missing else l_0_revived)) == 1) else 'are'))
            yield ' not a dead letter (see the list below).\n'
    yield 'Deliveries: '
    l_1_loop = missing
    t_4 = 1
    for (l_1_state, l_1_n), l_1_loop in LoopContext(t_1((undefined(name='counts') if l_0_counts is missing else l_0_counts)), undefined):
        _loop_vars = {}
        pass
        yield str(l_1_n)
        yield ' '
        yield str(l_1_state)
        yield str((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 9 in 'jobs.txt.j2' evaluated to false and no else section was defined.")))
        t_4 = 0
    l_1_loop = l_1_state = l_1_n = missing
    if t_4:
        pass
        yield 'none yet'
    yield '\n\n'
    if (undefined(name='dead') if l_0_dead is missing else l_0_dead):
        pass
        yield 'Dead letters (gave up after repeated failures; fix the cause, then `python -m bot jobs --retry ID`):\n'
        for l_1_d in (undefined(name='dead') if l_0_dead is missing else l_0_dead):
            _loop_vars = {}
            pass
            yield '  '
            yield str(environment.getattr(l_1_d, 'delivery_id'))
            yield '  '
            yield str(environment.getattr(l_1_d, 'event'))
            yield '.'
            yield str((environment.getattr(l_1_d, 'action') or ''))
            yield '  '
            yield str((environment.getattr(l_1_d, 'repo') or '-'))
            yield '#'
            yield str((environment.getattr(l_1_d, 'number') or '-'))
            yield '  attempts '
            yield str(environment.getattr(l_1_d, 'attempts'))
            yield '\n      '
            yield str(t_3(environment, (environment.getattr(l_1_d, 'last_error') or 'no error recorded'), 300))
            yield '\n'
        l_1_d = missing
    else:
        pass
        yield 'No dead letters.\n'

blocks = {}
debug_info = '3=33&4=35&5=41&6=43&9=50&12=63&14=66&15=70&16=82'

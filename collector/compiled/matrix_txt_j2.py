# Written by `python -m collector.compile_templates` from templates/matrix.txt.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '234bbd74e1c8d59cbb9125e5d9065f3e'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'matrix.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_a = resolve('a')
    l_0_archs = resolve('archs')
    try:
        t_1 = environment.filters['groupby']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'groupby' found.")
    try:
        t_2 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_3 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_4 = environment.filters['unique']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'unique' found.")
    pass
    yield 'torch '
    yield str(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'torch'))
    yield str(('  (the default `pip install torch` variant on Linux)' if (environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'variant') == environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'default_variant')) else cond_expr_undefined("the inline if-expression on line 2 in 'matrix.txt.j2' evaluated to false and no else section was defined.")))
    yield '\n  install:        '
    yield str(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'command'))
    yield '\n  driver:         Linux >= '
    yield str((environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'driver_linux') or '?'))
    yield str((str_join((', Windows >= ', environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'driver_windows'), )) if environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'driver_windows') else cond_expr_undefined("the inline if-expression on line 4 in 'matrix.txt.j2' evaluated to false and no else section was defined.")))
    yield '\n  python:         '
    yield str(environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'release'), 'python_min'))
    yield ' to '
    yield str(environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'release'), 'python_max'))
    yield '\n  torchvision:    '
    yield str(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'release'), 'torchvision'), 'get'), environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'patch'), '?'))
    yield '\n  torchaudio:     '
    yield str((context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'release'), 'torchaudio'), 'get'), environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'patch'), '?') if (context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'release'), 'torchaudio'), 'get'), environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'patch')) != 'none') else 'none released; 2.11.1 (pure Python) works'))
    yield '\n  variants:       '
    yield str(t_2(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'release'), 'variants'), ', '))
    yield ' (default '
    yield str(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'default_variant'))
    yield ')\n'
    if environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'wheel'):
        pass
        yield '  compiled for:   '
        yield str(context.call(environment.getattr((undefined(name='archs') if l_0_archs is missing else l_0_archs), 'describe'), context.call(environment.getattr((undefined(name='archs') if l_0_archs is missing else l_0_archs), 'arch_list'), environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'wheel'), 'archs'), environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'wheel'), 'ptx'))))
        yield str(('' if environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'wheel'), 'verified') else '  (not verified against a primary source)'))
        yield '\n  runs on:        '
        l_1_loop = missing
        for l_1_g, l_1_loop in LoopContext(t_1(environment, environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'runs_on'), 'architecture'), undefined):
            _loop_vars = {}
            pass
            yield str(environment.getattr(l_1_g, 'grouper'))
            yield ' ('
            yield str(t_2(context.eval_ctx, t_4(environment, t_3(context, environment.getattr(l_1_g, 'list'), attribute='cc')), ', '))
            yield ')'
            yield str((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 11 in 'matrix.txt.j2' evaluated to false and no else section was defined.")))
        l_1_loop = l_1_g = missing
        yield '\n  does not run:   '
        l_1_loop = missing
        for l_1_g, l_1_loop in LoopContext(t_1(environment, environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'does_not_run_on'), 'architecture'), undefined):
            _loop_vars = {}
            pass
            yield str(environment.getattr(l_1_g, 'grouper'))
            yield ' ('
            yield str(t_2(context.eval_ctx, t_4(environment, t_3(context, environment.getattr(l_1_g, 'list'), attribute='cc')), ', '))
            yield ')'
            yield str((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 13 in 'matrix.txt.j2' evaluated to false and no else section was defined.")))
        l_1_loop = l_1_g = missing
        yield '\n  source:         '
        yield str(environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'wheel'), 'source'))
        yield '\n'
    else:
        pass
        yield '  compiled for:   unknown (no arch list for this variant in the matrix)\n'
    yield '  release source: '
    yield str(environment.getattr(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'release'), 'source'))
    yield '\n'

blocks = {}
debug_info = '2=38&3=41&4=43&5=46&6=50&7=52&8=54&9=58&10=61&11=65&13=76&15=86&19=92'

# Written by `python -m collector.compile_templates` from templates/findings/gpus_hidden_by_env.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'b62f879e950352cb0dd503cc2c3154f0'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/gpus_hidden_by_env.md.j2'

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
    l_0_hiding = resolve('hiding')
    l_0_total = resolve('total')
    l_0_seen = resolve('seen')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_2 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_1_loop = missing
    for (l_1_name, l_1_value), l_1_loop in LoopContext(context.call(environment.getattr((undefined(name='hiding') if l_0_hiding is missing else l_0_hiding), 'items'), _block_vars=_block_vars), undefined):
        _loop_vars = {}
        pass
        yield str(l_1_name)
        yield '='
        yield str(t_1(l_1_value))
        yield str((' and ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 2 in 'findings/gpus_hidden_by_env.md.j2' evaluated to false and no else section was defined.")))
    l_1_loop = l_1_name = l_1_value = missing
    yield ' hides '
    if ((undefined(name='total') if l_0_total is missing else l_0_total) and (not t_2((undefined(name='seen') if l_0_seen is missing else l_0_seen)))):
        pass
        yield str(((undefined(name='total') if l_0_total is missing else l_0_total) - (undefined(name='seen') if l_0_seen is missing else l_0_seen)))
        yield ' of the '
        yield str((undefined(name='total') if l_0_total is missing else l_0_total))
        yield ' GPUs the driver sees'
    else:
        pass
        yield 'the GPUs from torch'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_hiding = resolve('hiding')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_3 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    pass
    l_1_loop = missing
    for (l_1_name, l_1_value), l_1_loop in LoopContext(context.call(environment.getattr((undefined(name='hiding') if l_0_hiding is missing else l_0_hiding), 'items'), _block_vars=_block_vars), undefined):
        l_1_range = resolve('range')
        l_1_total = resolve('total')
        _loop_vars = {}
        pass
        if (l_1_value == ''):
            pass
            yield str(t_1(l_1_name))
            yield ' is set but empty, which hides every GPU: '
            yield str(t_1(str_join(('unset ', l_1_name, ))))
        else:
            pass
            yield str(t_1(str_join((l_1_name, '=', l_1_value, ))))
            yield ' lists the GPUs torch may use; unset it or list the right indices (e.g. '
            yield str(t_1(str_join(('export ', l_1_name, '=', t_3(context.eval_ctx, context.call((undefined(name='range') if l_1_range is missing else l_1_range), ((undefined(name='total') if l_1_total is missing else l_1_total) or 1), _loop_vars=_loop_vars), ','), ))))
            yield ')'
        yield str(('; ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 3 in 'findings/gpus_hidden_by_env.md.j2' evaluated to false and no else section was defined.")))
    l_1_loop = l_1_name = l_1_value = l_1_range = l_1_total = missing
    yield '. Check with `python -c "import torch; print(torch.cuda.device_count())"`.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=57'

# Written by `python -m collector.compile_templates` from templates/findings/flash_attn_unsupported.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'fe47d0a5d31e93035ea33285816433b6'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/flash_attn_unsupported.md.j2'

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
    l_0_feature = resolve('feature')
    l_0_gpus = resolve('gpus')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    pass
    yield str(environment.getattr((undefined(name='feature') if l_0_feature is missing else l_0_feature), 'title'))
    yield ' does not run on '
    if (undefined(name='gpus') if l_0_gpus is missing else l_0_gpus):
        pass
        yield str(t_1(context.eval_ctx, (undefined(name='gpus') if l_0_gpus is missing else l_0_gpus), ', '))
    else:
        pass
        yield 'this GPU'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_fa3 = resolve('fa3')
    pass
    if (undefined(name='fa3') if l_0_fa3 is missing else l_0_fa3):
        pass
        yield 'FlashAttention-3 is built for Hopper (sm_90) only; use FlashAttention-2 (`pip install flash-attn`) on other GPUs.'
    else:
        pass
        yield 'FlashAttention-2 needs an Ampere or newer GPU (sm_80+). Use PyTorch\'s SDPA instead (`attn_implementation="sdpa"` in transformers), whose memory-efficient backend runs on older GPUs, or `attn_implementation="eager"`.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=39'

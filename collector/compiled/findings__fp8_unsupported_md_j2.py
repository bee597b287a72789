# Written by `python -m collector.compile_templates` from templates/findings/fp8_unsupported.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '97a15981a3015a0e677875b0597fd361'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/fp8_unsupported.md.j2'

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
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    yield 'FP8 needs compute capability '
    yield str(environment.getattr((undefined(name='feature') if l_0_feature is missing else l_0_feature), 'min_cc'))
    yield ' or newer'
    if (undefined(name='gpus') if l_0_gpus is missing else l_0_gpus):
        pass
        yield '; '
        yield str(t_1(context.eval_ctx, (undefined(name='gpus') if l_0_gpus is missing else l_0_gpus), ', '))
        yield ' '
        yield str(('is' if (t_2((undefined(name='gpus') if l_0_gpus is missing else l_0_gpus)) == 1) else 'are'))
        yield ' older'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield 'FP8 matmuls (`torch._scaled_mm`, vLLM/SGLang `--quantization fp8`, Transformer Engine FP8) run on Ada, Hopper and Blackwell GPUs only. On this GPU use bf16/fp16 weights or a non-FP8 quantization (AWQ, GPTQ, INT8/W8A16 such as Marlin kernels), or move to an sm_89+ GPU.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=47'

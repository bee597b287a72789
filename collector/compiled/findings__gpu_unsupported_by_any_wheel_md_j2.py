# Written by `python -m collector.compile_templates` from templates/findings/gpu_unsupported_by_any_wheel.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'd636a639395f87a6d04a211d43082279'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/gpu_unsupported_by_any_wheel.md.j2'

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
    l_0_gpu = resolve('gpu')
    l_0_cc = resolve('cc')
    pass
    yield 'No official torch wheel runs on the '
    yield str((undefined(name='gpu') if l_0_gpu is missing else l_0_gpu))
    yield ' (compute capability '
    yield str((undefined(name='cc') if l_0_cc is missing else l_0_cc))
    yield ')'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_oldest = resolve('oldest')
    l_0_cc = resolve('cc')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    pass
    yield 'The oldest architecture any torch wheel since 1.13 was built for is sm_'
    yield str(context.call(environment.getattr((undefined(name='oldest') if l_0_oldest is missing else l_0_oldest), 'replace'), '.', '', _block_vars=_block_vars))
    yield '. On this GPU torch runs on the CPU only, unless built from source with an old CUDA toolkit that still targets compute capability '
    yield str((undefined(name='cc') if l_0_cc is missing else l_0_cc))
    yield ' ('
    yield str(t_1(str_join(('TORCH_CUDA_ARCH_LIST="', (undefined(name='cc') if l_0_cc is missing else l_0_cc), '"', ))))
    yield ').'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=30'

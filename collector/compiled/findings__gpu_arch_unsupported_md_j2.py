# Written by `python -m collector.compile_templates` from templates/findings/gpu_arch_unsupported.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'f88b846455f1217d2d236b6db9f578a0'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/gpu_arch_unsupported.md.j2'

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
    l_0_version = resolve('version')
    l_0_sm = resolve('sm')
    l_0_gpu = resolve('gpu')
    l_0_cc = resolve('cc')
    pass
    yield 'torch'
    yield str((str_join((' ', (undefined(name='version') if l_0_version is missing else l_0_version), )) if (undefined(name='version') if l_0_version is missing else l_0_version) else cond_expr_undefined("the inline if-expression on line 2 in 'findings/gpu_arch_unsupported.md.j2' evaluated to false and no else section was defined.")))
    yield ' has no '
    yield str((undefined(name='sm') if l_0_sm is missing else l_0_sm))
    yield ' kernels for the '
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
    l_0_built = resolve('built')
    l_0_command = resolve('command')
    l_0_sm = resolve('sm')
    l_0_floor = resolve('floor')
    l_0_wheel = resolve('wheel')
    l_0_cc = resolve('cc')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    pass
    yield 'This wheel was compiled for '
    yield str((undefined(name='built') if l_0_built is missing else l_0_built))
    yield ' only, so every CUDA kernel fails with "no kernel image is available". '
    if (undefined(name='command') if l_0_command is missing else l_0_command):
        pass
        yield 'Install a build that includes '
        yield str((undefined(name='sm') if l_0_sm is missing else l_0_sm))
        yield ': '
        yield str(t_1((undefined(name='command') if l_0_command is missing else l_0_command)))
        if (undefined(name='floor') if l_0_floor is missing else l_0_floor):
            pass
            yield ' (CUDA '
            yield str(environment.getattr((undefined(name='wheel') if l_0_wheel is missing else l_0_wheel), 'cuda'))
            yield ' wheels need driver >= '
            yield str((undefined(name='floor') if l_0_floor is missing else l_0_floor))
            yield ')'
        yield '.'
    else:
        pass
        yield 'No torch release in the matrix ships '
        yield str((undefined(name='sm') if l_0_sm is missing else l_0_sm))
        yield ' kernels for this driver; build from source with '
        yield str(t_1(str_join(('TORCH_CUDA_ARCH_LIST="', (undefined(name='cc') if l_0_cc is missing else l_0_cc), '"', ))))
        yield ' or upgrade the driver.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=36'

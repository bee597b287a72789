# Written by `python -m collector.compile_templates` from templates/findings/gpu_too_old_for_cuda.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '4ce689ef01b509b3ff0cc44b25ec7b39'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/gpu_too_old_for_cuda.md.j2'

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
    l_0_cuda = resolve('cuda')
    l_0_family = resolve('family')
    pass
    yield 'The '
    yield str((undefined(name='gpu') if l_0_gpu is missing else l_0_gpu))
    yield ' (compute capability '
    yield str((undefined(name='cc') if l_0_cc is missing else l_0_cc))
    yield ') is too old for CUDA '
    yield str((undefined(name='cuda') if l_0_cuda is missing else l_0_cuda))
    yield ': CUDA '
    yield str(environment.getattr((undefined(name='family') if l_0_family is missing else l_0_family), 'major'))
    yield '.x supports compute capability '
    yield str(environment.getattr((undefined(name='family') if l_0_family is missing else l_0_family), 'min_cc'))
    yield ' and newer'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_command = resolve('command')
    l_0_branch = resolve('branch')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    pass
    if (undefined(name='command') if l_0_command is missing else l_0_command):
        pass
        yield 'Use a wheel built with an older CUDA that still targets this GPU: '
        yield str(t_1((undefined(name='command') if l_0_command is missing else l_0_command)))
        yield '.'
    else:
        pass
        yield 'No torch release in the matrix still supports this GPU; use an older torch built from source.'
    if (undefined(name='branch') if l_0_branch is missing else l_0_branch):
        pass
        yield ' Keep the driver on the '
        yield str(environment.getattr((undefined(name='branch') if l_0_branch is missing else l_0_branch), 'last_branch'))
        yield ' branch or older: newer drivers dropped '
        yield str(environment.getattr((undefined(name='branch') if l_0_branch is missing else l_0_branch), 'architecture'))
        yield ' GPUs.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=38'

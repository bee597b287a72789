# Written by `python -m collector.compile_templates` from templates/findings/driver_too_old.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '2a4ebd1180a844d00a34f1432c5295a2'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/driver_too_old.md.j2'

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
    l_0_driver = resolve('driver')
    l_0_driver_cuda = resolve('driver_cuda')
    l_0_cuda = resolve('cuda')
    pass
    yield 'The NVIDIA driver'
    yield str((str_join((' ', (undefined(name='driver') if l_0_driver is missing else l_0_driver), )) if (undefined(name='driver') if l_0_driver is missing else l_0_driver) else cond_expr_undefined("the inline if-expression on line 2 in 'findings/driver_too_old.md.j2' evaluated to false and no else section was defined.")))
    if (undefined(name='driver_cuda') if l_0_driver_cuda is missing else l_0_driver_cuda):
        pass
        yield ' (supports CUDA ≤ '
        yield str((undefined(name='driver_cuda') if l_0_driver_cuda is missing else l_0_driver_cuda))
        yield ')'
    yield ' is too old for torch built with CUDA '
    yield str((undefined(name='cuda') if l_0_cuda is missing else l_0_cuda))

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_floor = resolve('floor')
    l_0_branch = resolve('branch')
    l_0_cuda = resolve('cuda')
    l_0_command = resolve('command')
    l_0_wheel_cuda = resolve('wheel_cuda')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    pass
    yield 'Upgrade the NVIDIA driver to >= '
    yield str((undefined(name='floor') if l_0_floor is missing else l_0_floor))
    yield ' (the '
    yield str((undefined(name='branch') if l_0_branch is missing else l_0_branch))
    yield ' branch or newer); CUDA '
    yield str(environment.getitem(context.call(environment.getattr((undefined(name='cuda') if l_0_cuda is missing else l_0_cuda), 'split'), '.', _block_vars=_block_vars), 0))
    yield '.x wheels run on any driver from there on.'
    if (undefined(name='command') if l_0_command is missing else l_0_command):
        pass
        yield ' Or keep the driver and install a wheel built for CUDA '
        yield str((undefined(name='wheel_cuda') if l_0_wheel_cuda is missing else l_0_wheel_cuda))
        yield ': '
        yield str(t_1((undefined(name='command') if l_0_command is missing else l_0_command)))
        yield '.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=35'

# Written by `python -m collector.compile_templates` from templates/findings/nccl_topology_or_p2p.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '0f0f8a578ce10e01ab5e3143563a0755'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/nccl_topology_or_p2p.md.j2'

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
    l_0_failures = resolve('failures')
    l_0_blocked = resolve('blocked')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['truncate']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'truncate' found.")
    pass
    if (undefined(name='failures') if l_0_failures is missing else l_0_failures):
        pass
        yield 'Communication between the GPUs failed: '
        yield str(t_2(environment, environment.getitem((undefined(name='failures') if l_0_failures is missing else l_0_failures), 0), 160))
    else:
        pass
        yield 'NCCL fails where P2P between GPUs is not supported ('
        yield str(t_1(context.eval_ctx, (undefined(name='blocked') if l_0_blocked is missing else l_0_blocked), ', '))
        yield ')'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_hypervisor = resolve('hypervisor')
    l_0_container = resolve('container')
    pass
    yield 'Run once with `NCCL_DEBUG=INFO` to see which transport fails. If `NCCL_P2P_DISABLE=1` makes it work, peer-to-peer over PCIe is broken on this machine: '
    if (undefined(name='hypervisor') if l_0_hypervisor is missing else l_0_hypervisor):
        pass
        yield 'in a VM ('
        yield str((undefined(name='hypervisor') if l_0_hypervisor is missing else l_0_hypervisor))
        yield ') P2P needs the GPUs passed through behind the same switch with ACS disabled'
    else:
        pass
        yield 'disable the IOMMU or ACS on the PCIe switches (BIOS, or `iommu=pt` on the kernel command line)'
    if (undefined(name='container') if l_0_container is missing else l_0_container):
        pass
        yield '; in a container also give NCCL shared memory (`--shm-size=16g` or `--ipc=host`)'
    yield '. Keep the workaround only if the cause cannot be fixed: it routes traffic through host memory and is slower.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=46'

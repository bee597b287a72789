# Written by `python -m collector.compile_templates` from templates/findings/nccl_hang.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'f817d18e11fe3ce8c846d543ef72dafa'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/nccl_hang.md.j2'

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
    pass
    yield 'A collective (NCCL) hang between GPUs'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield 'Hangs in all-reduce on one machine are usually peer-to-peer transfers that the platform blocks (IOMMU/ACS on PCIe switches, virtualization). Run once with `NCCL_DEBUG=INFO`; if `NCCL_P2P_DISABLE=1` makes it work, disable the IOMMU or ACS (`iommu=pt`, or VT-d off in the BIOS) rather than keeping the slower workaround; in containers also give NCCL shared memory (`--shm-size=16g` or `--ipc=host`). `nvidia-smi topo -m` shows which GPU pairs cross PCIe switches (PIX/PXB).'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=24'

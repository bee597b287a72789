# Written by `python -m collector.compile_templates` from templates/findings/container_small_shm.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '68253245d113d71f7dfc7279c2aee5ae'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/container_small_shm.md.j2'

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
    l_0_shm_mib = resolve('shm_mib')
    l_0_container = resolve('container')
    pass
    yield '/dev/shm is only '
    yield str((undefined(name='shm_mib') if l_0_shm_mib is missing else l_0_shm_mib))
    yield ' MiB in this '
    yield str((undefined(name='container') if l_0_container is missing else l_0_container))
    yield ' container'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield 'DataLoader workers and NCCL pass data through shared memory; the container default (64 MiB) makes them fail with "bus error", "unable to write to file </torch_...>" or NCCL "unhandled system error". Start the container with `--shm-size=16g` (or `--ipc=host`); in Kubernetes mount an `emptyDir` with `medium: Memory` at /dev/shm.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=30'

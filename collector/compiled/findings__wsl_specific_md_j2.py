# Written by `python -m collector.compile_templates` from templates/findings/wsl_specific.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '3e29be185e142d4c6523a4b548844a1f'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/wsl_specific.md.j2'

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
    l_0_wsl = resolve('wsl')
    pass
    yield 'CUDA under WSL'
    yield str((undefined(name='wsl') if l_0_wsl is missing else l_0_wsl))
    yield ' cannot reach the Windows NVIDIA driver'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield "Under WSL the GPU driver is the Windows one: install or update the NVIDIA driver on Windows and run `wsl --update`. Inside WSL never install a Linux NVIDIA driver (`nvidia-driver-*`, `cuda-drivers` or the `cuda` meta-package); if one is there, remove it. `libcuda.so` must come from `/usr/lib/wsl/lib`: check `ls /usr/lib/wsl/lib/libcuda.so*` and that nothing earlier on `LD_LIBRARY_PATH` provides another copy. For a toolkit, use only the `cuda-toolkit-X-Y` package from NVIDIA's WSL-Ubuntu repository."

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=27'

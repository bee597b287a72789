# Written by `python -m collector.compile_templates` from templates/findings/container_no_gpu.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '83ab545d1b9d930cec886d748fcc7beb'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/container_no_gpu.md.j2'

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
    l_0_container = resolve('container')
    pass
    yield 'The '
    yield str((undefined(name='container') if l_0_container is missing else l_0_container))
    yield ' container has no access to the GPU driver'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_container = resolve('container')
    pass
    if ((undefined(name='container') if l_0_container is missing else l_0_container) in ('docker', 'podman', 'containerd')):
        pass
        yield 'Start it with the NVIDIA Container Toolkit: `docker run --gpus all ...` (podman: `--device nvidia.com/gpu=all`), after installing `nvidia-container-toolkit` on the host and running `sudo nvidia-ctk runtime configure --runtime=docker`.'
    elif ((undefined(name='container') if l_0_container is missing else l_0_container) == 'kubernetes'):
        pass
        yield 'Request GPUs in the pod spec (`resources.limits: nvidia.com/gpu: 1`) on a node with the NVIDIA device plugin or GPU Operator.'
    else:
        pass
        yield 'Run the container with GPU support ('
        yield str((undefined(name='container') if l_0_container is missing else l_0_container))
        yield ': `--nv` for Singularity/Apptainer, the NVIDIA hook for enroot).'
    yield ' The driver lives on the host; never install it inside the image.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=27'

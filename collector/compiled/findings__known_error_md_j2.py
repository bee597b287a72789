# Written by `python -m collector.compile_templates` from templates/findings/known_error.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '6bb5829607e4248132f65b22b906eff9'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/known_error.md.j2'

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
    l_0_summary = resolve('summary')
    pass
    yield 'The error points to: '
    yield str((undefined(name='summary') if l_0_summary is missing else l_0_summary))

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_category = resolve('category')
    l_0_have_report = resolve('have_report')
    pass
    if ((undefined(name='category') if l_0_category is missing else l_0_category) == 'cpu_only_wheel'):
        pass
        yield 'torch was installed without CUDA. Reinstall it from a CUDA wheel index: `pip uninstall -y torch torchvision torchaudio`, then the command for your CUDA version from https://pytorch.org/get-started/locally/ (with `--index-url https://download.pytorch.org/whl/cuXXX`).'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'driver_too_old'):
        pass
        yield 'The driver is older than the CUDA torch was built with needs. Upgrade the driver (CUDA 12.x wheels need >= 525.60.13, CUDA 13.x >= 580.65.06), or install a wheel built for an older CUDA with `--index-url https://download.pytorch.org/whl/cu126`.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'driver_not_loaded'):
        pass
        yield 'The NVIDIA driver is not usable: after a driver upgrade, reboot ("Driver/library version mismatch"); otherwise check `lsmod | grep -E \'nvidia|nouveau\'` and `dmesg | grep -i nvidia`, blacklist nouveau and (re)install the driver.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'gpus_hidden_by_env'):
        pass
        yield 'Check `echo $CUDA_VISIBLE_DEVICES $NVIDIA_VISIBLE_DEVICES`: an empty or wrong value hides the GPUs the driver sees. Unset it or list the right indices.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'gpu_arch_unsupported'):
        pass
        yield "The installed wheel has no kernels for this GPU's architecture. Compare `torch.cuda.get_arch_list()` with `torch.cuda.get_device_capability()` and install a build that includes it (RTX 50xx / Blackwell need torch >= 2.7 with `--index-url https://download.pytorch.org/whl/cu128` or newer; Pascal/Maxwell GPUs need the `cu126` wheels)."
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'gpu_too_old_for_cuda'):
        pass
        yield 'This GPU is older than the CUDA version in use supports. Use a torch wheel built with an older CUDA that still targets it (e.g. `--index-url https://download.pytorch.org/whl/cu126`), or an older torch release.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'torchvision_mismatch'):
        pass
        yield 'torchvision must come from the same torch release and wheel index as torch. Reinstall it with the version that pairs with your torch (see https://github.com/pytorch/vision#installation) and the same `--index-url`.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'torchaudio_mismatch'):
        pass
        yield 'torchaudio must match the torch release it was built for. Reinstall the torchaudio version that pairs with your torch from the same `--index-url`.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'library_shadowing'):
        pass
        yield 'Another copy of a CUDA library (cuDNN, NCCL, cuBLAS) is loaded instead of the one the torch wheel ships, usually through `LD_LIBRARY_PATH`. Remove system CUDA library directories from `LD_LIBRARY_PATH` (or `unset LD_LIBRARY_PATH`) and uninstall stray `nvidia-*` packages of another CUDA major.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'mixed_installs'):
        pass
        yield 'torch is installed more than once (pip and conda, or two site directories). Keep one installer per environment: remove one copy (`pip uninstall torch` or `conda remove pytorch`) and reinstall once.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'nccl_topology_or_p2p'):
        pass
        yield 'Run with `NCCL_DEBUG=INFO`; if `NCCL_P2P_DISABLE=1` makes it work, peer-to-peer between the GPUs is broken (IOMMU/ACS, virtualization); in containers also give NCCL shared memory (`--shm-size=16g` or `--ipc=host`).'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'fp8_unsupported'):
        pass
        yield 'FP8 runs on compute capability 8.9+ (Ada, Hopper, Blackwell) only. Use bf16/fp16 or a non-FP8 quantization on this GPU.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'flash_attn_unsupported'):
        pass
        yield 'FlashAttention-2 needs an Ampere (sm_80) or newer GPU, FlashAttention-3 a Hopper. Use `attn_implementation="sdpa"` or `"eager"` on older GPUs.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'wsl_specific'):
        pass
        yield 'Under WSL use only the Windows NVIDIA driver: update it on Windows, never install a Linux driver inside WSL, and make sure `libcuda.so` comes from `/usr/lib/wsl/lib`.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'container_runtime'):
        pass
        yield 'Give the container the GPU and enough shared memory: `docker run --gpus all --shm-size=16g ...` with the NVIDIA Container Toolkit installed on the host.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'mig_related'):
        pass
        yield 'Under MIG, select an instance by its `MIG-` UUID in `CUDA_VISIBLE_DEVICES` (see `nvidia-smi -L`); NCCL and P2P do not work across MIG instances.'
    elif ((undefined(name='category') if l_0_category is missing else l_0_category) == 'oom_or_memory'):
        pass
        yield 'The GPU ran out of memory. Check `nvidia-smi` for other processes holding memory, reduce the batch size or sequence length, and set `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` to reduce fragmentation.'
    else:
        pass
        yield 'See the quoted error.'
    if (not (undefined(name='have_report') if l_0_have_report is missing else l_0_have_report)):
        pass
        yield ' Run `python -m collector` and paste its output so the exact cause and command can be given.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '3=11&4=12&3=14&4=26&5=39&6=42&7=45&8=48&9=51&10=54&11=57&12=60&13=63&14=66&15=69&16=72&17=75&18=78&19=81&20=84&21=90'

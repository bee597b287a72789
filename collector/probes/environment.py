"""Environment variables that change how CUDA, NCCL and torch behave (an allow-list, never the whole env)."""

from __future__ import annotations

from collector.context import Context
from collector.probes import probe
from collector.report.model import Fact, Result
from collector.report.schema import ENV

ALLOWED_PREFIXES = (
    "CUDA_",
    "CUDNN_",
    "CUBLAS_",
    "CUBLASLT_",
    "NCCL_",
    "NVSHMEM_",
    "NVIDIA_",
    "NVTE_",
    "TORCH_",
    "PYTORCH_",
    "TORCHINDUCTOR_",
    "TRITON_",
    "OMP_",
    "MKL_",
    "KMP_",
    "HIP_",
    "ROCR_",
    "HSA_",
    "VLLM_",
    "XLA_",
    "UCX_",
)
ALLOWED_NAMES = (
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "PYTHONPATH",
    "PYTHONNOUSERSITE",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "MASTER_ADDR",
    "MASTER_PORT",
    "WORLD_SIZE",
    "RANK",
    "LOCAL_RANK",
    "LOCAL_WORLD_SIZE",
    "SLURM_JOB_GPUS",
    "SLURM_STEP_GPUS",
    "SLURM_GPUS_ON_NODE",
    "SLURM_NTASKS",
    "SLURM_CPUS_PER_TASK",
)


def allowed(name: str) -> bool:
    return name in ALLOWED_NAMES or name.startswith(ALLOWED_PREFIXES)


@probe(ENV)
def environment(ctx: Context) -> Result:
    chosen = {name: value for name, value in sorted(ctx.env.items()) if allowed(name)}
    return Fact(chosen, source="os.environ (allow-listed names)")

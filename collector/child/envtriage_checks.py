"""The smoke checks themselves; each runs in a fresh forked process (see envtriage_smoke.py).

Each returns {"passed", "detail", "metrics"} or raises Skip. Stdlib + torch only, Python >= 3.8.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from typing import Any

from envtriage_smoke import Skip, scratch_dir


def _cuda(torch: Any) -> int:
    if not torch.cuda.is_available():
        raise Skip("CUDA is not available to torch")
    return int(torch.cuda.device_count())


def _relative_error(torch: Any, got: Any, want: Any) -> float:
    scale = want.abs().max().item() or 1.0
    return float((got.float() - want.float()).abs().max().item() / scale)


def matmul_bf16(torch: Any, deep: bool) -> dict[str, object]:
    count = _cuda(torch)
    size = 4096 if deep else 256
    metrics: dict[str, float] = {}
    for index in range(count):
        device = torch.device("cuda", index)
        a = torch.randn(size, size, device=device, dtype=torch.bfloat16)
        b = torch.randn(size, size, device=device, dtype=torch.bfloat16)
        error = _relative_error(torch, a @ b, a.float() @ b.float())
        metrics["gpu%d_rel_error" % index] = round(error, 5)
        if deep:
            metrics["gpu%d_tflops" % index] = round(_tflops(torch, a, b), 1)
    worst = max(value for name, value in metrics.items() if name.endswith("rel_error"))
    # bf16 keeps 8 bits of mantissa; a sum of `size` products rounded once is well inside 2%.
    passed = worst < 0.02
    return {
        "passed": passed,
        "detail": "%d GPU(s), %dx%d, worst relative error %.4f" % (count, size, size, worst),
        "metrics": metrics,
    }


def _tflops(torch: Any, a: Any, b: Any) -> float:
    for _ in range(3):
        a @ b
    torch.cuda.synchronize(a.device)
    start = time.perf_counter()
    for _ in range(10):
        a @ b
    torch.cuda.synchronize(a.device)
    return float(2 * a.shape[0] ** 3 * 10 / (time.perf_counter() - start) / 1e12)


def fp8(torch: Any, deep: bool) -> dict[str, object]:
    count = _cuda(torch)
    capable = [i for i in range(count) if torch.cuda.get_device_capability(i) >= (8, 9)]
    if not capable:
        cc = "%d.%d" % torch.cuda.get_device_capability(0)
        raise Skip(f"FP8 matmul needs compute capability 8.9 or newer; GPU0 is {cc}")
    metrics: dict[str, float] = {}
    for index in capable:
        device = torch.device("cuda", index)
        a = torch.randn(64, 64, device=device).to(torch.float8_e4m3fn)
        b = torch.randn(64, 64, device=device).to(torch.float8_e4m3fn)
        one = torch.tensor(1.0, device=device)
        # _scaled_mm wants the second operand column-major; older releases returned (out, amax).
        out = torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
        out = out[0] if isinstance(out, tuple) else out
        metrics["gpu%d_rel_error" % index] = round(_relative_error(torch, out, a.float() @ b.float().t()), 5)
    worst = max(metrics.values())
    return {
        "passed": worst < 0.02,
        "detail": "torch._scaled_mm on %d GPU(s), worst relative error %.4f" % (len(capable), worst),
        "metrics": metrics,
    }


def sdpa_flash(torch: Any, deep: bool) -> dict[str, object]:
    count = _cuda(torch)
    major, minor = torch.cuda.get_device_capability(0)
    if major < 8:
        raise Skip("SDPA's flash backend needs sm_80 or newer; GPU0 is sm_%d%d" % (major, minor))
    import torch.nn.functional as F

    q, k, v = (torch.randn(1, 8, 256, 64, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    with _flash_only(torch):
        out = F.scaled_dot_product_attention(q, k, v)
    reference = F.scaled_dot_product_attention(q.float(), k.float(), v.float())
    error = _relative_error(torch, out, reference)
    return {
        "passed": error < 0.02,
        "detail": "flash backend on GPU0 of %d, relative error %.4f" % (count, error),
        "metrics": {"rel_error": round(error, 5)},
    }


def _flash_only(torch: Any) -> Any:
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel

        return sdpa_kernel(SDPBackend.FLASH_ATTENTION)
    except ImportError:  # torch < 2.3
        return torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False, enable_mem_efficient=False)


def p2p(torch: Any, deep: bool) -> dict[str, object]:
    count = _cuda(torch)
    if count < 2:
        raise Skip("one GPU visible: no pairs to test")
    metrics: dict[str, float] = {}
    notes, passed = [], True
    size = (64 if deep else 8) * 1024 * 1024
    for i in range(count):
        for j in range(count):
            if i == j:
                continue
            peer = bool(torch.cuda.can_device_access_peer(i, j))
            source = torch.arange(size // 4, device="cuda:%d" % i, dtype=torch.float32)
            # The first copy between two GPUs also sets up their peer mapping: time the second one (on a 2xH200
            # host the first read 0.4 GB/s over NVLink).
            source.to("cuda:%d" % j)
            torch.cuda.synchronize(i)
            torch.cuda.synchronize(j)
            start = time.perf_counter()
            copy = source.to("cuda:%d" % j)
            torch.cuda.synchronize(j)
            seconds = time.perf_counter() - start
            ok = bool(torch.equal(copy.cpu(), source.cpu()))
            passed = passed and ok
            metrics["gpu%d_to_gpu%d_gbps" % (i, j)] = round(size / seconds / 1e9, 1)
            notes.append("GPU%d->GPU%d peer=%s copy=%s" % (i, j, "yes" if peer else "no", "ok" if ok else "WRONG"))
    return {"passed": passed, "detail": "; ".join(notes), "metrics": metrics}


def nccl(torch: Any, deep: bool) -> dict[str, object]:
    count = _count_without_cuda(torch)
    if count < 1:
        raise Skip("CUDA is not available to torch")
    import torch.distributed as dist

    if not dist.is_available() or not dist.is_nccl_available():
        raise Skip("this torch was built without NCCL")
    directory = scratch_dir()
    try:
        return _all_reduce(count, os.path.join(directory, "store"), deep)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _count_without_cuda(torch: Any) -> int:
    """The visible device count, asked in a throwaway child: this process must fork the ranks CUDA-clean."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        try:
            count = torch.cuda.device_count() if torch.cuda.is_available() else 0
            os.write(writer, str(count).encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as answer:
        text = answer.read()
    os.waitpid(pid, 0)
    return int(text or 0)


def _all_reduce(world: int, store_path: str, deep: bool) -> dict[str, object]:
    # One process per GPU, forked before any of them touches CUDA; bootstrap stays on loopback.
    os.environ.setdefault("NCCL_SOCKET_IFNAME", "lo")
    reader, writer = os.pipe()
    pids = []
    for rank in range(world):
        pid = os.fork()
        if pid == 0:
            os.close(reader)
            try:
                report = _rank(rank, world, store_path, deep)
            except BaseException as exc:
                report = {"ok": False, "busbw_gbps": 0.0, "error": f"{type(exc).__name__}: {exc}"}
            finally:
                os.write(writer, (json.dumps(report) + "\n").encode())
                os._exit(0)
        pids.append(pid)
    os.close(writer)
    with os.fdopen(reader) as results:
        reports = [json.loads(line) for line in results if line.strip()]
    for pid in pids:
        os.waitpid(pid, 0)
    wrong = [r for r in reports if not r["ok"]]
    bus = min((r["busbw_gbps"] for r in reports), default=0.0)
    errors = sorted({r["error"] for r in wrong if "error" in r})
    detail = "%d rank(s): sum %s; bus bandwidth %.1f GB/s" % (world, "correct" if not wrong else "WRONG", bus)
    if world == 1:
        detail = "1 rank: sum %s (one GPU: no traffic between GPUs to measure)" % ("correct" if not wrong else "WRONG")
    if errors:
        detail = "%d rank(s) failed: %s" % (len(wrong), "; ".join(errors))
    metrics = {"busbw_gbps": bus} if world > 1 else {}
    return {"passed": len(reports) == world and not wrong, "detail": detail, "metrics": metrics}


def _rank(rank: int, world: int, store_path: str, deep: bool) -> dict[str, object]:
    import datetime

    import torch
    import torch.distributed as dist

    torch.cuda.set_device(rank)
    store = dist.FileStore(store_path, world)  # type: ignore[attr-defined,unused-ignore]  # needed with torch only
    dist.init_process_group("nccl", store=store, rank=rank, world_size=world, timeout=datetime.timedelta(seconds=45))
    try:
        tensor = torch.full((1024,), float(rank + 1), device="cuda")
        dist.all_reduce(tensor)
        ok = bool(torch.all(tensor == world * (world + 1) / 2).item())
        elements = (256 if deep else 32) * 1024 * 1024 // 4
        big = torch.ones(elements, device="cuda")
        dist.all_reduce(big)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(5):
            dist.all_reduce(big)
        torch.cuda.synchronize()
        algbw = elements * 4 * 5 / (time.perf_counter() - start) / 1e9
        # nccl-tests' bus bandwidth: what each link carries in a ring all-reduce.
        return {"ok": ok, "busbw_gbps": round(algbw * 2 * (world - 1) / world if world > 1 else algbw, 1)}
    finally:
        dist.destroy_process_group()


CHECKS = {
    "smoke.matmul_bf16": matmul_bf16,
    "smoke.fp8": fp8,
    "smoke.sdpa_flash": sdpa_flash,
    "smoke.p2p": p2p,
    "smoke.nccl": nccl,
}

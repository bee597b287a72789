# Written by `python -m collector.compile_templates` from templates/report.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '53d20d2bef462893d7d45f1464e47874'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_f = resolve('f')
    l_0_r = resolve('r')
    l_0_gpu_rows = resolve('gpu_rows')
    l_0_verdicts = resolve('verdicts')
    l_0_missing = resolve('missing')
    l_0_topology_rows = resolve('topology_rows')
    l_0_pairs = resolve('pairs')
    l_0_twin = resolve('twin')
    l_0_absent = l_0_t = l_0_d = l_0_py = l_0_os = l_0_rt = l_0_gpus = l_0_topo = l_0_pk = l_0_cpu = l_0_lim = l_0_km = l_0_env = missing
    try:
        t_1 = environment.filters['cell']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'cell' found.")
    try:
        t_2 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_3 = environment.filters['fence']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'fence' found.")
    try:
        t_4 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_5 = environment.filters['gib']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'gib' found.")
    try:
        t_6 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_7 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_8 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_9 = environment.filters['select']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'select' found.")
    try:
        t_10 = environment.tests['defined']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No test named 'defined' found.")
    try:
        t_11 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    def macro(l_1_name):
        t_12 = []
        l_1_m = missing
        if l_1_name is missing:
            l_1_name = undefined("parameter 'name' was not provided", name='name')
        pass
        l_1_m = context.call(environment.getattr((undefined(name='missing') if l_0_missing is missing else l_0_missing), 'get'), l_1_name)
        if (undefined(name='m') if l_1_m is missing else l_1_m):
            pass
            t_12.extend((
                '_',
                str(environment.getitem({'missing': 'not collected', 'timeout': 'timed out', 'error': 'failed', 'skipped': 'skipped'}, environment.getattr((undefined(name='m') if l_1_m is missing else l_1_m), 'status'))),
                ': ',
                str(t_1(environment.getattr((undefined(name='m') if l_1_m is missing else l_1_m), 'reason'))),
                '_',
            ))
        else:
            pass
            t_12.append(
                '_not collected_',
            )
        return concat(t_12)
    context.exported_vars.add('absent')
    context.vars['absent'] = l_0_absent = Macro(environment, macro, 'absent', ('name',), False, False, False, context.eval_ctx.autoescape)
    l_0_t = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'torch')
    context.vars['t'] = l_0_t
    context.exported_vars.add('t')
    l_0_d = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'driver')
    context.vars['d'] = l_0_d
    context.exported_vars.add('d')
    l_0_py = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'python')
    context.vars['py'] = l_0_py
    context.exported_vars.add('py')
    l_0_os = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'os')
    context.vars['os'] = l_0_os
    context.exported_vars.add('os')
    l_0_rt = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'runtime')
    context.vars['rt'] = l_0_rt
    context.exported_vars.add('rt')
    l_0_gpus = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'gpus')
    context.vars['gpus'] = l_0_gpus
    context.exported_vars.add('gpus')
    yield '### Environment (envtriage '
    yield str(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'meta'), 'generator'))
    yield ')\n\n| | |\n|---|---|\n| **PyTorch** | '
    if (undefined(name='t') if l_0_t is missing else l_0_t):
        pass
        yield str(t_2(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'version')))
        yield ' · CUDA '
        yield str((environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'cuda') or (str_join(('none, HIP ', environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'hip'), )) if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'hip') else 'none (CPU-only build)')))
        if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'cudnn'):
            pass
            yield ' · cuDNN '
            yield str(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'cudnn'))
            yield ' loaded'
        if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'nccl'):
            pass
            yield ' · NCCL '
            yield str(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'nccl'))
            yield ' loaded'
        yield ' · CUDA available: '
        yield str(('yes' if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'available') else '**no**'))
    else:
        pass
        yield str(context.call((undefined(name='absent') if l_0_absent is missing else l_0_absent), 'torch'))
    yield ' |\n| **Driver** | '
    if ((undefined(name='d') if l_0_d is missing else l_0_d) and environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'version')):
        pass
        yield str(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'version'))
        yield ' · supports CUDA ≤ '
        yield str((environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'cuda_max') or '?'))
    else:
        pass
        yield str((context.call((undefined(name='absent') if l_0_absent is missing else l_0_absent), 'driver') if (not (undefined(name='d') if l_0_d is missing else l_0_d)) else '_unknown_'))
    yield ' |\n| **GPUs** | '
    if (undefined(name='gpus') if l_0_gpus is missing else l_0_gpus):
        pass
        l_1_loop = missing
        for l_1_row, l_1_loop in LoopContext((undefined(name='gpu_rows') if l_0_gpu_rows is missing else l_0_gpu_rows), undefined):
            _loop_vars = {}
            pass
            yield str(environment.getattr(l_1_row, 'count'))
            yield '× '
            yield str(t_1(environment.getattr(environment.getattr(l_1_row, 'gpu'), 'name')))
            yield ' (sm_'
            yield str(context.call(environment.getattr((environment.getattr(environment.getattr(l_1_row, 'gpu'), 'cc') or '?'), 'replace'), '.', '', _loop_vars=_loop_vars))
            yield ')'
            yield str((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 14 in 'report.md.j2' evaluated to false and no else section was defined.")))
        l_1_loop = l_1_row = missing
        if ((undefined(name='t') if l_0_t is missing else l_0_t) and (not t_11(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'available')))):
            pass
            yield ' · torch sees '
            yield str(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'device_count'))
            yield ' of '
            yield str(t_7((undefined(name='gpus') if l_0_gpus is missing else l_0_gpus)))
    elif (not t_11((undefined(name='gpus') if l_0_gpus is missing else l_0_gpus))):
        pass
        yield 'none found by NVML'
    else:
        pass
        yield str(context.call((undefined(name='absent') if l_0_absent is missing else l_0_absent), 'gpus'))
    yield ' |\n| **Python** | '
    if (undefined(name='py') if l_0_py is missing else l_0_py):
        pass
        yield str(environment.getattr((undefined(name='py') if l_0_py is missing else l_0_py), 'version'))
        yield ' ('
        yield str(environment.getattr((undefined(name='py') if l_0_py is missing else l_0_py), 'environment'))
        yield ')'
    else:
        pass
        yield str(context.call((undefined(name='absent') if l_0_absent is missing else l_0_absent), 'python'))
    if (undefined(name='os') if l_0_os is missing else l_0_os):
        pass
        yield ' · '
        yield str((environment.getattr((undefined(name='os') if l_0_os is missing else l_0_os), 'distro') or t_1(environment.getattr((undefined(name='os') if l_0_os is missing else l_0_os), 'system'))))
        yield ' · '
        yield str(environment.getattr((undefined(name='os') if l_0_os is missing else l_0_os), 'machine'))
    yield ' |\n'
    if ((undefined(name='rt') if l_0_rt is missing else l_0_rt) and ((((environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'container') or environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'wsl')) or environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'jetson')) or environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'hypervisor')) or environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'slurm_job'))):
        pass
        yield '| **Runs in** | '
        yield str(t_1(t_6(context.eval_ctx, t_9(context, [environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'container'), (str_join(('WSL', environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'wsl'), )) if environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'wsl') else cond_expr_undefined("the inline if-expression on line 17 in 'report.md.j2' evaluated to false and no else section was defined.")), environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'jetson'), environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'hypervisor'), ('Slurm job' if environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'slurm_job') else cond_expr_undefined("the inline if-expression on line 17 in 'report.md.j2' evaluated to false and no else section was defined."))]), ' · ')))
        yield ' |\n'
    if (undefined(name='verdicts') if l_0_verdicts is missing else l_0_verdicts):
        pass
        yield '\n'
        for l_1_v in (undefined(name='verdicts') if l_0_verdicts is missing else l_0_verdicts):
            _loop_vars = {}
            pass
            yield '- '
            yield str(environment.getitem({'ok': '✅', 'warning': '⚠️', 'error': '❌', 'info': 'ℹ️'}, environment.getattr(l_1_v, 'level')))
            yield ' '
            yield str(environment.getattr(l_1_v, 'text'))
            yield '\n'
        l_1_v = missing
    if (undefined(name='gpus') if l_0_gpus is missing else l_0_gpus):
        pass
        yield '\n| GPU | Name | CC | Memory | MIG | ECC | PCIe |\n|---|---|---|---|---|---|---|\n'
        for l_1_row in (undefined(name='gpu_rows') if l_0_gpu_rows is missing else l_0_gpu_rows):
            l_1_g = missing
            _loop_vars = {}
            pass
            l_1_g = environment.getattr(l_1_row, 'gpu')
            _loop_vars['g'] = l_1_g
            yield '| '
            yield str((environment.getattr(l_1_row, 'first') if (environment.getattr(l_1_row, 'count') == 1) else str_join((environment.getattr(l_1_row, 'first'), '–', environment.getattr(l_1_row, 'last'), ))))
            yield ' | '
            yield str(t_1(environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'name')))
            yield ' | '
            yield str((environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'cc') or '?'))
            yield ' | '
            yield str(t_5(environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'memory_mib')))
            yield ' | '
            yield str(('on' if environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'mig_mode') else ('off' if (not t_11(environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'mig_mode'))) else 'n/a')))
            yield str((str_join((' (pending ', ('on' if environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'mig_pending') else 'off'), ')', )) if ((not t_11(environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'mig_pending'))) and (environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'mig_pending') != environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'mig_mode'))) else cond_expr_undefined("the inline if-expression on line 30 in 'report.md.j2' evaluated to false and no else section was defined.")))
            yield ' | '
            yield str((str_join(('on', (str_join((', ', environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'ecc_volatile_uncorrected'), ' uncorrected', )) if environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'ecc_volatile_uncorrected') else ''), )) if environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'ecc') else ('off' if (not t_11(environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'ecc'))) else 'n/a')))
            yield ' | '
            if environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_gen'):
                pass
                yield 'Gen'
                yield str(environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_gen'))
                yield ' x'
                yield str(environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_width'))
                if (environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_max_gen') and ((environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_max_gen') != environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_gen')) or (environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_max_width') != environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_width')))):
                    pass
                    yield ' (max Gen'
                    yield str(environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_max_gen'))
                    yield ' x'
                    yield str(environment.getattr((undefined(name='g') if l_1_g is missing else l_1_g), 'pcie_max_width'))
                    yield ')'
            yield ' |\n'
        l_1_row = l_1_g = missing
    yield '\n<details><summary>PyTorch and the CUDA libraries it loaded</summary>\n\n'
    if (undefined(name='t') if l_0_t is missing else l_0_t):
        pass
        yield '- Location: '
        yield str(t_2(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'location')))
        if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'import_seconds'):
            pass
            yield ' (import took '
            yield str(t_4('%.1f', environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'import_seconds')))
            yield ' s)'
        yield '\n- Built for: '
        yield str((t_6(context.eval_ctx, environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'arch_list'), ' ') if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'arch_list') else 'no CUDA architectures (CPU or ROCm build)'))
        yield '\n- Debug build: '
        yield str(('yes' if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'debug') else 'no'))
        yield ' · C++11 ABI: '
        yield str(environment.getitem({True: 'yes', False: 'no', None: '?'}, environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'cxx11_abi')))
        if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'cudnn_built'):
            pass
            yield ' · cuDNN built against '
            yield str(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'cudnn_built'))
        if (not t_11(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'bf16_supported'))):
            pass
            yield ' · bf16 supported: '
            yield str(('yes' if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'bf16_supported') else 'no'))
        yield '\n'
        if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'cudnn_error'):
            pass
            yield '- cuDNN error:\n\n'
            yield str(t_3(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'cudnn_error')))
            yield '\n'
        if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'init_error'):
            pass
            yield '- CUDA initialisation error:\n\n'
            yield str(t_3(environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'init_error')))
            yield '\n'
        if environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'devices'):
            pass
            yield '\n| CUDA device | Name | CC | Memory | SMs | UUID |\n|---|---|---|---|---|---|\n'
            for l_1_dev in environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'devices'):
                _loop_vars = {}
                pass
                yield '| '
                yield str(environment.getattr(l_1_dev, 'index'))
                yield ' | '
                yield str(t_1(environment.getattr(l_1_dev, 'name')))
                yield ' | '
                yield str(environment.getattr(l_1_dev, 'cc'))
                yield ' | '
                yield str(t_5(environment.getattr(l_1_dev, 'memory_mib')))
                yield ' | '
                yield str((environment.getattr(l_1_dev, 'multiprocessors') or '?'))
                yield ' | '
                yield str((environment.getattr(l_1_dev, 'uuid') or ''))
                yield ' |\n'
            l_1_dev = missing
    else:
        pass
        yield str(context.call((undefined(name='absent') if l_0_absent is missing else l_0_absent), 'torch'))
        yield '\n'
        if (context.call(environment.getattr((undefined(name='missing') if l_0_missing is missing else l_0_missing), 'get'), 'torch') and environment.getattr(context.call(environment.getattr((undefined(name='missing') if l_0_missing is missing else l_0_missing), 'get'), 'torch'), 'detail')):
            pass
            yield '\n'
            yield str(t_3(environment.getattr(context.call(environment.getattr((undefined(name='missing') if l_0_missing is missing else l_0_missing), 'get'), 'torch'), 'detail')))
            yield '\n'
    if context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'libraries'):
        pass
        yield '\n| Loaded library | Version | Path | Package |\n|---|---|---|---|\n'
        for l_1_lib in context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'libraries'):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.getattr(l_1_lib, 'name'))
            yield ' | '
            yield str((environment.getattr(l_1_lib, 'version') or '?'))
            yield ' | '
            yield str(t_2(environment.getattr(l_1_lib, 'path')))
            yield ' | '
            yield str(t_1((environment.getattr(l_1_lib, 'owner') or 'not from a wheel')))
            yield ' |\n'
        l_1_lib = missing
    elif ('libraries' in (undefined(name='missing') if l_0_missing is missing else l_0_missing)):
        pass
        yield '\nLoaded libraries: '
        yield str(context.call((undefined(name='absent') if l_0_absent is missing else l_0_absent), 'libraries'))
        yield '\n'
    if context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'library_copies'):
        pass
        yield '\n| Other copy on the loader path | Version | Path | Found via |\n|---|---|---|---|\n'
        for l_1_lib in context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'library_copies'):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.getattr(l_1_lib, 'name'))
            yield ' | '
            yield str((environment.getattr(l_1_lib, 'version') or '?'))
            yield ' | '
            yield str(t_2(environment.getattr(l_1_lib, 'path')))
            yield ' | '
            yield str(environment.getattr(l_1_lib, 'found_via'))
            yield ' |\n'
        l_1_lib = missing
    if context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'toolkit'):
        pass
        yield '\nCUDA toolkit (for building extensions; torch does not use it): '
        l_1_loop = missing
        for l_1_n, l_1_loop in LoopContext(context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'toolkit'), undefined):
            _loop_vars = {}
            pass
            yield 'nvcc '
            yield str((environment.getattr(l_1_n, 'version') or '?'))
            yield ' at '
            yield str(t_2(environment.getattr(l_1_n, 'path')))
            yield ' ('
            yield str(environment.getattr(l_1_n, 'found_via'))
            yield ')'
            yield str((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 88 in 'report.md.j2' evaluated to false and no else section was defined.")))
        l_1_loop = l_1_n = missing
        yield '\n'
    else:
        pass
        yield '\nCUDA toolkit: '
        yield str(context.call((undefined(name='absent') if l_0_absent is missing else l_0_absent), 'toolkit'))
        yield '\n'
    yield '\n</details>\n'
    l_0_topo = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'topology')
    context.vars['topo'] = l_0_topo
    context.exported_vars.add('topo')
    if (undefined(name='topo') if l_0_topo is missing else l_0_topo):
        pass
        yield '\n<details><summary>Topology ('
        yield str(t_7(environment.getattr((undefined(name='topo') if l_0_topo is missing else l_0_topo), 'gpus')))
        yield ' GPUs)</summary>\n\n| | '
        yield str(t_6(context.eval_ctx, environment.getattr((undefined(name='topo') if l_0_topo is missing else l_0_topo), 'gpus'), ' | '))
        yield ' | CPU affinity | NUMA |\n|---|'
        for l_1__ in environment.getattr((undefined(name='topo') if l_0_topo is missing else l_0_topo), 'gpus'):
            _loop_vars = {}
            pass
            yield '---|'
        l_1__ = missing
        yield '---|---|\n'
        for l_1_row in (undefined(name='topology_rows') if l_0_topology_rows is missing else l_0_topology_rows):
            _loop_vars = {}
            pass
            yield '| **'
            yield str(environment.getattr(l_1_row, 'label'))
            yield '** | '
            yield str(t_6(context.eval_ctx, environment.getattr(l_1_row, 'cells'), ' | '))
            yield ' | '
            yield str(environment.getattr(l_1_row, 'cpu'))
            yield ' | '
            yield str(environment.getattr(l_1_row, 'numa'))
            yield ' |\n'
        l_1_row = missing
        if environment.getattr((undefined(name='topo') if l_0_topo is missing else l_0_topo), 'p2p'):
            pass
            yield '\n'
            l_0_pairs = []
            context.vars['pairs'] = l_0_pairs
            context.exported_vars.add('pairs')
            l_1_loop = missing
            for l_1_row, l_1_loop in LoopContext(environment.getattr((undefined(name='topo') if l_0_topo is missing else l_0_topo), 'p2p'), undefined):
                l_1_i = missing
                _loop_vars = {}
                pass
                l_1_i = environment.getattr(l_1_loop, 'index0')
                _loop_vars['i'] = l_1_i
                l_2_loop = missing
                for l_2_cell_value, l_2_loop in LoopContext(l_1_row, undefined):
                    l_2__ = resolve('_')
                    _loop_vars = {}
                    pass
                    if (environment.getattr(l_2_loop, 'index0') > (undefined(name='i') if l_1_i is missing else l_1_i)):
                        pass
                        l_2__ = context.call(environment.getattr((undefined(name='pairs') if l_0_pairs is missing else l_0_pairs), 'append'), str_join(('GPU', (undefined(name='i') if l_1_i is missing else l_1_i), '↔GPU', environment.getattr(l_2_loop, 'index0'), ' ', l_2_cell_value, )), _loop_vars=_loop_vars)
                        _loop_vars['_'] = l_2__
                l_2_loop = l_2_cell_value = l_2__ = missing
            l_1_loop = l_1_row = l_1_i = missing
            yield 'P2P read: '
            yield str(t_6(context.eval_ctx, (undefined(name='pairs') if l_0_pairs is missing else l_0_pairs), ' · '))
            yield '\n\n'
        if environment.getattr((undefined(name='topo') if l_0_topo is missing else l_0_topo), 'nvlink'):
            pass
            yield '\nNVLink: '
            l_1_loop = missing
            for l_1_link, l_1_loop in LoopContext(environment.getattr((undefined(name='topo') if l_0_topo is missing else l_0_topo), 'nvlink'), undefined):
                _loop_vars = {}
                pass
                yield 'GPU'
                yield str(environment.getattr(l_1_link, 'gpu'))
                yield ' '
                yield str(environment.getattr(l_1_link, 'links_up'))
                yield '/'
                yield str(environment.getattr(l_1_link, 'links_total'))
                yield ' up'
                if environment.getattr(l_1_link, 'peers'):
                    pass
                    yield ' ('
                    l_2_loop = missing
                    for (l_2_peer, l_2_n), l_2_loop in LoopContext(context.call(environment.getattr(environment.getattr(l_1_link, 'peers'), 'items'), _loop_vars=_loop_vars), undefined):
                        _loop_vars = {}
                        pass
                        yield str(l_2_n)
                        yield '→'
                        yield str(l_2_peer)
                        yield str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 114 in 'report.md.j2' evaluated to false and no else section was defined.")))
                    l_2_loop = l_2_peer = l_2_n = missing
                    yield ')'
                yield str((' · ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 114 in 'report.md.j2' evaluated to false and no else section was defined.")))
            l_1_loop = l_1_link = missing
            yield '\n'
        yield '_Source: '
        yield str(environment.getattr(environment.getitem(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'facts'), 'topology'), 'source'))
        yield '. X = self, NV# = # NVLinks, PIX/PXB = PCIe switch(es), PHB = host bridge, NODE = same NUMA node, SYS = across NUMA nodes._\n\n</details>\n'
    yield '\n<details><summary>Smoke tests</summary>\n\n| Test | Result | Detail | Seconds |\n|---|---|---|---|\n'
    def t_13(fiter):
        for (l_1_name, l_1_res) in fiter:
            if context.call(environment.getattr(l_1_name, 'startswith'), 'smoke.'):
                yield (l_1_name, l_1_res)
    for (l_1_name, l_1_res) in t_13(context.call(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'facts'), 'items'))):
        _loop_vars = {}
        pass
        yield '| '
        yield str(l_1_name[6:])
        yield ' | '
        if t_10(environment.getattr(l_1_res, 'value')):
            pass
            yield str(('passed' if environment.getattr(environment.getattr(l_1_res, 'value'), 'passed') else '**FAILED**'))
            yield ' | '
            yield str(t_1((environment.getattr(environment.getattr(l_1_res, 'value'), 'detail') or '')))
        else:
            pass
            yield str(environment.getitem({'missing': 'not run', 'timeout': '**timed out**', 'error': '**error**', 'skipped': 'skipped'}, environment.getattr(l_1_res, 'status')))
            yield ' | '
            yield str(t_1(environment.getattr(l_1_res, 'reason')))
        yield ' | '
        yield str((t_4('%.2f', environment.getattr(l_1_res, 'seconds')) if (not t_11(environment.getattr(l_1_res, 'seconds'))) else ''))
        yield ' |\n'
    l_1_name = l_1_res = missing
    yield '\n</details>\n'
    l_0_pk = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'packages')
    context.vars['pk'] = l_0_pk
    context.exported_vars.add('pk')
    yield '\n<details><summary>Python packages'
    if (undefined(name='pk') if l_0_pk is missing else l_0_pk):
        pass
        yield ' ('
        yield str(t_7(environment.getattr((undefined(name='pk') if l_0_pk is missing else l_0_pk), 'selected')))
        yield ' of '
        yield str(environment.getattr((undefined(name='pk') if l_0_pk is missing else l_0_pk), 'total'))
        yield ' shown)'
    yield '</summary>\n\n'
    if (undefined(name='pk') if l_0_pk is missing else l_0_pk):
        pass
        yield '| Package | Version | Installer | Location |\n|---|---|---|---|\n'
        for l_1_p in environment.getattr((undefined(name='pk') if l_0_pk is missing else l_0_pk), 'selected'):
            _loop_vars = {}
            pass
            yield '| '
            yield str(t_1(environment.getattr(l_1_p, 'name')))
            yield ' | '
            yield str(t_1(environment.getattr(l_1_p, 'version')))
            yield ' | '
            yield str((environment.getattr(l_1_p, 'installer') or ''))
            yield ' | '
            yield str(t_2(environment.getattr(l_1_p, 'location')))
            yield str((' (editable)' if environment.getattr(l_1_p, 'editable') else cond_expr_undefined("the inline if-expression on line 139 in 'report.md.j2' evaluated to false and no else section was defined.")))
            yield ' |\n'
        l_1_p = missing
        l_1_loop = missing
        for l_1_dup, l_1_loop in LoopContext(environment.getattr((undefined(name='pk') if l_0_pk is missing else l_0_pk), 'duplicates'), undefined):
            _loop_vars = {}
            pass
            yield '\n**'
            yield str(environment.getattr(l_1_dup, 'name'))
            yield ' is installed '
            yield str(t_7(environment.getattr(l_1_dup, 'copies')))
            yield ' times**: '
            l_2_loop = missing
            for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_dup, 'copies'), undefined):
                _loop_vars = {}
                pass
                yield str(environment.getattr(l_2_c, 'version'))
                yield ' in '
                yield str(t_2(environment.getattr(l_2_c, 'location')))
                yield str((' (imported)' if environment.getattr(l_2_loop, 'first') else cond_expr_undefined("the inline if-expression on line 143 in 'report.md.j2' evaluated to false and no else section was defined.")))
                yield str((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 143 in 'report.md.j2' evaluated to false and no else section was defined.")))
            l_2_loop = l_2_c = missing
            yield '\n'
        l_1_loop = l_1_dup = missing
    else:
        pass
        yield str(context.call((undefined(name='absent') if l_0_absent is missing else l_0_absent), 'packages'))
        yield '\n'
    yield '\n</details>\n\n<details><summary>Platform</summary>\n\n'
    if (undefined(name='os') if l_0_os is missing else l_0_os):
        pass
        yield '- OS: '
        yield str((environment.getattr((undefined(name='os') if l_0_os is missing else l_0_os), 'distro') or t_1(environment.getattr((undefined(name='os') if l_0_os is missing else l_0_os), 'system'))))
        yield ' · kernel '
        yield str((environment.getattr((undefined(name='os') if l_0_os is missing else l_0_os), 'kernel') or '?'))
        yield ' · '
        yield str(environment.getattr((undefined(name='os') if l_0_os is missing else l_0_os), 'machine'))
        if environment.getattr((undefined(name='os') if l_0_os is missing else l_0_os), 'glibc'):
            pass
            yield ' · glibc '
            yield str(environment.getattr((undefined(name='os') if l_0_os is missing else l_0_os), 'glibc'))
        yield '\n'
    l_0_cpu = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'cpu')
    context.vars['cpu'] = l_0_cpu
    context.exported_vars.add('cpu')
    if (undefined(name='cpu') if l_0_cpu is missing else l_0_cpu):
        pass
        yield '- CPU: '
        yield str(t_1((environment.getattr((undefined(name='cpu') if l_0_cpu is missing else l_0_cpu), 'model') or '?')))
        yield ' · '
        yield str((environment.getattr((undefined(name='cpu') if l_0_cpu is missing else l_0_cpu), 'sockets') or '?'))
        yield ' socket(s), '
        yield str((environment.getattr((undefined(name='cpu') if l_0_cpu is missing else l_0_cpu), 'cores') or '?'))
        yield ' cores, '
        yield str((environment.getattr((undefined(name='cpu') if l_0_cpu is missing else l_0_cpu), 'threads') or '?'))
        yield ' threads · NUMA nodes: '
        yield str((environment.getattr((undefined(name='cpu') if l_0_cpu is missing else l_0_cpu), 'numa_nodes') or '?'))
        if environment.getattr((undefined(name='cpu') if l_0_cpu is missing else l_0_cpu), 'flags'):
            pass
            yield ' · '
            yield str(t_6(context.eval_ctx, environment.getattr((undefined(name='cpu') if l_0_cpu is missing else l_0_cpu), 'flags'), ' '))
        yield '\n'
    l_0_lim = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'limits')
    context.vars['lim'] = l_0_lim
    context.exported_vars.add('lim')
    if (undefined(name='lim') if l_0_lim is missing else l_0_lim):
        pass
        yield '- Memory: '
        yield str((t_5((environment.getattr((undefined(name='lim') if l_0_lim is missing else l_0_lim), 'memory_bytes') // 1048576)) if environment.getattr((undefined(name='lim') if l_0_lim is missing else l_0_lim), 'memory_bytes') else '?'))
        yield ' · /dev/shm: '
        yield str((t_5((environment.getattr((undefined(name='lim') if l_0_lim is missing else l_0_lim), 'shm_bytes') // 1048576)) if environment.getattr((undefined(name='lim') if l_0_lim is missing else l_0_lim), 'shm_bytes') else '?'))
        if environment.getattr((undefined(name='lim') if l_0_lim is missing else l_0_lim), 'cgroup_cpus'):
            pass
            yield ' · cgroup CPU limit: '
            yield str(environment.getattr((undefined(name='lim') if l_0_lim is missing else l_0_lim), 'cgroup_cpus'))
        if environment.getattr((undefined(name='lim') if l_0_lim is missing else l_0_lim), 'cgroup_memory_bytes'):
            pass
            yield ' · cgroup memory limit: '
            yield str(t_5((environment.getattr((undefined(name='lim') if l_0_lim is missing else l_0_lim), 'cgroup_memory_bytes') // 1048576)))
        yield '\n'
    l_0_km = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'kernel_modules')
    context.vars['km'] = l_0_km
    context.exported_vars.add('km')
    if (undefined(name='km') if l_0_km is missing else l_0_km):
        pass
        yield '- Kernel module: '
        yield str((str_join(('nvidia ', environment.getattr((undefined(name='km') if l_0_km is missing else l_0_km), 'nvidia'), ' (', environment.getattr((undefined(name='km') if l_0_km is missing else l_0_km), 'flavour'), ')', )) if environment.getattr((undefined(name='km') if l_0_km is missing else l_0_km), 'nvidia') else 'nvidia not loaded'))
        yield str((' · **nouveau loaded**' if environment.getattr((undefined(name='km') if l_0_km is missing else l_0_km), 'nouveau') else cond_expr_undefined("the inline if-expression on line 167 in 'report.md.j2' evaluated to false and no else section was defined.")))
        yield '\n'
    if ((undefined(name='rt') if l_0_rt is missing else l_0_rt) and environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'evidence')):
        pass
        yield '- Runtime evidence: '
        yield str(t_1(t_6(context.eval_ctx, environment.getattr((undefined(name='rt') if l_0_rt is missing else l_0_rt), 'evidence'), '; ')))
        yield '\n'
    yield '\n</details>\n'
    l_0_env = context.call(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'get'), 'env')
    context.vars['env'] = l_0_env
    context.exported_vars.add('env')
    yield '\n<details><summary>Environment variables ('
    yield str((t_7((undefined(name='env') if l_0_env is missing else l_0_env)) if (undefined(name='env') if l_0_env is missing else l_0_env) else 0))
    yield ' on the allow-list)</summary>\n\n'
    if (undefined(name='env') if l_0_env is missing else l_0_env):
        pass
        yield str(t_3(t_6(context.eval_ctx, t_8(context, context.call(environment.getattr((undefined(name='env') if l_0_env is missing else l_0_env), 'items')), 'join', '='), '\n')))
        yield '\n'
    else:
        pass
        yield '_none of the allow-listed variables is set_\n'
    yield '\n</details>\n\n<details><summary>How each fact was collected</summary>\n\n| Fact | Source | Seconds |\n|---|---|---|\n'
    for (l_1_name, l_1_res) in context.call(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'facts'), 'items')):
        _loop_vars = {}
        pass
        yield '| '
        yield str(l_1_name)
        yield ' | '
        if t_10(environment.getattr(l_1_res, 'source')):
            pass
            yield str(t_1(environment.getattr(l_1_res, 'source')))
        else:
            pass
            yield str(environment.getattr(l_1_res, 'status'))
            yield ': '
            yield str(t_1(environment.getattr(l_1_res, 'reason')))
        yield ' | '
        yield str((t_4('%.3f', environment.getattr(l_1_res, 'seconds')) if (not t_11(environment.getattr(l_1_res, 'seconds'))) else ''))
        yield ' |\n'
    l_1_name = l_1_res = missing
    yield '\n</details>\n\n<sub>Collected in '
    yield str(t_4('%.1f', (environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'meta'), 'duration_seconds') or 0)))
    yield ' s by `python -m collector`'
    if environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'meta'), 'options'):
        pass
        yield ' ('
        yield str(t_6(context.eval_ctx, t_8(context, context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'meta'), 'options'), 'items')), 'join', '='), ', '))
        yield ')'
    yield '. '
    if environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'meta'), 'redacted'):
        pass
        yield 'Redacted: '
        l_1_loop = missing
        for (l_1_what, l_1_n), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'meta'), 'redacted'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield str(l_1_what)
            yield ' ×'
            yield str(l_1_n)
            yield str((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 196 in 'report.md.j2' evaluated to false and no else section was defined.")))
        l_1_loop = l_1_what = l_1_n = missing
        yield '.'
    else:
        pass
        yield 'Nothing needed redacting.'
    if environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'meta'), 'truncated'):
        pass
        yield " Left out to fit GitHub's size limit: "
        yield str(t_6(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'meta'), 'truncated'), ', '))
        yield '.'
    yield '</sub>\n\n'
    yield str((undefined(name='twin') if l_0_twin is missing else l_0_twin))
    yield '\n'

blocks = {}
debug_info = '4=86&5=92&7=110&8=129&12=131&13=152&14=161&15=188&16=204&17=207&19=209&21=212&22=216&25=221&29=224&30=231&36=260&37=263&39=270&40=272&42=284&45=287&47=289&50=292&52=294&56=297&57=301&61=316&62=318&64=321&67=323&71=326&72=330&74=339&76=342&78=344&82=347&83=351&86=360&88=364&92=380&96=383&97=386&99=389&101=391&102=393&103=399&104=403&106=412&108=415&109=437&112=439&114=443&117=470&126=473&127=481&131=498&133=502&135=510&138=513&139=517&141=528&143=532&147=550&154=553&155=556&158=566&159=572&162=586&163=592&166=604&167=610&169=613&170=616&174=619&176=623&178=625&179=627&190=633&191=637&196=652&198=682'

# Written by `python -m collector.compile_templates` from templates/findings/cpu_only_wheel.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '63b51e26f95aaf051d250cc556e9db49'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/cpu_only_wheel.md.j2'

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
    l_0_version = resolve('version')
    l_0_gpus = resolve('gpus')
    pass
    yield 'torch'
    yield str((str_join((' ', (undefined(name='version') if l_0_version is missing else l_0_version), )) if (undefined(name='version') if l_0_version is missing else l_0_version) else cond_expr_undefined("the inline if-expression on line 2 in 'findings/cpu_only_wheel.md.j2' evaluated to false and no else section was defined.")))
    yield ' is a CPU-only build'
    if (undefined(name='gpus') if l_0_gpus is missing else l_0_gpus):
        pass
        yield ', but this machine has '
        yield str((undefined(name='gpus') if l_0_gpus is missing else l_0_gpus))

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_windows = resolve('windows')
    l_0_uninstall = resolve('uninstall')
    l_0_command = resolve('command')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    pass
    yield 'Reinstall torch from a CUDA wheel index'
    if (undefined(name='windows') if l_0_windows is missing else l_0_windows):
        pass
        yield ' (on Windows, `pip install torch` from PyPI always installs the CPU build)'
    yield ': '
    yield str(t_1((undefined(name='uninstall') if l_0_uninstall is missing else l_0_uninstall)))
    yield ', then '
    if (undefined(name='command') if l_0_command is missing else l_0_command):
        pass
        yield str(t_1((undefined(name='command') if l_0_command is missing else l_0_command)))
    else:
        pass
        yield 'the command for your CUDA version from https://pytorch.org/get-started/locally/'
    yield '. Check with `python -c "import torch; print(torch.__version__, torch.version.cuda)"`: the version must not end in `+cpu`.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=32'

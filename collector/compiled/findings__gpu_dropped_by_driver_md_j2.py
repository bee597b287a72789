# Written by `python -m collector.compile_templates` from templates/findings/gpu_dropped_by_driver.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '87d1266e821bbf3058ec19d57d00b742'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/gpu_dropped_by_driver.md.j2'

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
    l_0_driver = resolve('driver')
    l_0_gpu = resolve('gpu')
    l_0_branch = resolve('branch')
    l_0_cc = resolve('cc')
    pass
    yield 'Driver '
    yield str((undefined(name='driver') if l_0_driver is missing else l_0_driver))
    yield ' no longer supports the '
    yield str((undefined(name='gpu') if l_0_gpu is missing else l_0_gpu))
    yield ' ('
    yield str(environment.getattr((undefined(name='branch') if l_0_branch is missing else l_0_branch), 'architecture'))
    yield ', compute capability '
    yield str((undefined(name='cc') if l_0_cc is missing else l_0_cc))
    yield ')'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_branch = resolve('branch')
    pass
    yield 'The '
    yield str(environment.getattr((undefined(name='branch') if l_0_branch is missing else l_0_branch), 'last_branch'))
    yield ' driver branch is the last one for '
    yield str(environment.getattr((undefined(name='branch') if l_0_branch is missing else l_0_branch), 'architecture'))
    yield ' GPUs: install a '
    yield str(environment.getattr((undefined(name='branch') if l_0_branch is missing else l_0_branch), 'last_branch'))
    yield '.xx driver, and a torch wheel whose CUDA that branch runs.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=36'

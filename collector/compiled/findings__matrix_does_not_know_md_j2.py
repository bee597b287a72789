# Written by `python -m collector.compile_templates` from templates/findings/matrix_does_not_know.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'db1c046f6c075ed3ebc92935a44a1b34'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/matrix_does_not_know.md.j2'

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
    l_0_newest = resolve('newest')
    l_0_reviewed = resolve('reviewed')
    pass
    yield 'The compatibility matrix does not know torch '
    yield str((undefined(name='version') if l_0_version is missing else l_0_version))
    yield ' yet (newest known: '
    yield str((undefined(name='newest') if l_0_newest is missing else l_0_newest))
    yield ', reviewed '
    yield str((undefined(name='reviewed') if l_0_reviewed is missing else l_0_reviewed))
    yield ')'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield "Checks that need the release's wheel variants and companions were skipped rather than guessed; the other findings still hold."

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=33'

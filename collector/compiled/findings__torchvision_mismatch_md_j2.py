# Written by `python -m collector.compile_templates` from templates/findings/torchvision_mismatch.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'fea3a62c7015487bb917d6067b00bd09'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/torchvision_mismatch.md.j2'

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
    l_0_variant_only = resolve('variant_only')
    l_0_found = resolve('found')
    l_0_torch = resolve('torch')
    l_0_expected = resolve('expected')
    pass
    if (undefined(name='variant_only') if l_0_variant_only is missing else l_0_variant_only):
        pass
        yield 'torchvision '
        yield str((undefined(name='found') if l_0_found is missing else l_0_found))
        yield ' and torch '
        yield str((undefined(name='torch') if l_0_torch is missing else l_0_torch))
        yield ' come from different CUDA wheel indexes'
    else:
        pass
        yield 'torchvision '
        yield str((undefined(name='found') if l_0_found is missing else l_0_found))
        yield ' does not belong to torch '
        yield str((undefined(name='torch') if l_0_torch is missing else l_0_torch))
        yield ' (it needs torchvision '
        yield str((undefined(name='expected') if l_0_expected is missing else l_0_expected))
        yield ')'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_command = resolve('command')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    pass
    yield 'torchvision\'s compiled operators only load into the torch release and CUDA variant they were built for ("operator torchvision::nms does not exist" otherwise). Reinstall it from the same index as torch: '
    yield str(t_1((undefined(name='command') if l_0_command is missing else l_0_command)))
    yield '.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=43'

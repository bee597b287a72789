# Written by `python -m collector.compile_templates` from templates/findings/library_on_ld_path.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '349d780d67de29364578a406cbe080e5'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/library_on_ld_path.md.j2'

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
    l_0_copies = resolve('copies')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_3 = environment.filters['unique']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'unique' found.")
    pass
    yield 'LD_LIBRARY_PATH holds another '
    yield str(t_1(context.eval_ctx, t_3(environment, t_2(context, (undefined(name='copies') if l_0_copies is missing else l_0_copies), attribute='name')), ', '))
    yield ' ('
    yield str(t_1(context.eval_ctx, t_2(context, (undefined(name='copies') if l_0_copies is missing else l_0_copies), attribute='path'), ', '))
    yield ')'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_directories = resolve('directories')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    pass
    yield 'The torch wheel ships its own copy; one found first on `LD_LIBRARY_PATH` can replace it and fail with "undefined symbol" or "cuDNN version incompatibility". Remove '
    yield str(t_1(context.eval_ctx, (undefined(name='directories') if l_0_directories is missing else l_0_directories), ', '))
    yield ' from `LD_LIBRARY_PATH` unless another program needs it.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=47'

# Written by `python -m collector.compile_templates` from templates/findings/library_shadowing.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '8111317d735129b2380a2ae757d7f90e'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/library_shadowing.md.j2'

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
    l_0_libraries = resolve('libraries')
    l_0_directories = resolve('directories')
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
    pass
    if (undefined(name='libraries') if l_0_libraries is missing else l_0_libraries):
        pass
        yield 'torch loaded '
        yield str(t_1(context.eval_ctx, t_2(context, (undefined(name='libraries') if l_0_libraries is missing else l_0_libraries), attribute='name'), ', '))
        yield ' from '
        yield str(t_1(context.eval_ctx, (undefined(name='directories') if l_0_directories is missing else l_0_directories), ', '))
        yield ' instead of the copies its wheel ships'
    else:
        pass
        yield 'The cuDNN torch found is not the one it was built with'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_error = resolve('error')
    l_0_ld_path = resolve('ld_path')
    l_0_clean_path = resolve('clean_path')
    l_0_directories = resolve('directories')
    try:
        t_3 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_4 = environment.filters['truncate']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'truncate' found.")
    try:
        t_5 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    if (undefined(name='error') if l_0_error is missing else l_0_error):
        pass
        yield 'torch says: "'
        yield str(t_4(environment, (undefined(name='error') if l_0_error is missing else l_0_error), 240))
        yield '". '
    yield "A library directory ahead of the wheel's own ("
    if (undefined(name='ld_path') if l_0_ld_path is missing else l_0_ld_path):
        pass
        yield str(t_3(str_join(('LD_LIBRARY_PATH=', (undefined(name='ld_path') if l_0_ld_path is missing else l_0_ld_path), ))))
    else:
        pass
        yield 'usually `LD_LIBRARY_PATH`'
    yield ') makes torch pick up an older or mismatched cuDNN/NCCL. '
    if (undefined(name='clean_path') if l_0_clean_path is missing else l_0_clean_path):
        pass
        yield 'Drop '
        yield str(t_1(context.eval_ctx, (undefined(name='directories') if l_0_directories is missing else l_0_directories), ', '))
        yield ' from it: '
        yield str(t_3(str_join(('export LD_LIBRARY_PATH=', (undefined(name='clean_path') if l_0_clean_path is missing else l_0_clean_path), ))))
    elif (not t_5((undefined(name='clean_path') if l_0_clean_path is missing else l_0_clean_path))):
        pass
        yield 'Nothing else is on it: `unset LD_LIBRARY_PATH`'
    else:
        pass
        yield 'Remove '
        yield str((t_1(context.eval_ctx, (undefined(name='directories') if l_0_directories is missing else l_0_directories), ', ') if (undefined(name='directories') if l_0_directories is missing else l_0_directories) else 'the system cuDNN/NCCL directory'))
        yield ' from `LD_LIBRARY_PATH`'
    yield str((' (or `unset LD_LIBRARY_PATH`)' if (undefined(name='clean_path') if l_0_clean_path is missing else l_0_clean_path) else cond_expr_undefined("the inline if-expression on line 3 in 'findings/library_shadowing.md.j2' evaluated to false and no else section was defined.")))
    yield ", and don't `export` it in `~/.bashrc` or the container image."

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=47'

# Written by `python -m collector.compile_templates` from templates/findings/mixed_installs.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '04b0b107b6e82219da637fc29d3c5f5e'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/mixed_installs.md.j2'

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
    l_0_duplicates = resolve('duplicates')
    l_0_cuda_majors = resolve('cuda_majors')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_3 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    pass
    if (undefined(name='duplicates') if l_0_duplicates is missing else l_0_duplicates):
        pass
        yield str(t_1(context.eval_ctx, t_3(context, (undefined(name='duplicates') if l_0_duplicates is missing else l_0_duplicates), attribute='name'), ', '))
        yield ' '
        yield str(('is' if (t_2((undefined(name='duplicates') if l_0_duplicates is missing else l_0_duplicates)) == 1) else 'are'))
        yield ' installed more than once'
    else:
        pass
        yield 'CUDA libraries for '
        yield str(t_1(context.eval_ctx, (undefined(name='cuda_majors') if l_0_cuda_majors is missing else l_0_cuda_majors), ' and '))
        yield ' are installed side by side'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_duplicates = resolve('duplicates')
    l_0_cuda_majors = resolve('cuda_majors')
    try:
        t_4 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    l_1_loop = missing
    for l_1_d, l_1_loop in LoopContext((undefined(name='duplicates') if l_0_duplicates is missing else l_0_duplicates), undefined):
        _loop_vars = {}
        pass
        yield str(environment.getattr(l_1_d, 'name'))
        yield ': '
        l_2_loop = missing
        for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_d, 'copies'), undefined):
            _loop_vars = {}
            pass
            yield str(environment.getattr(l_2_c, 'version'))
            yield ' ('
            yield str((environment.getattr(l_2_c, 'installer') or '?'))
            yield str((str_join((', ', environment.getattr(l_2_c, 'location'), )) if environment.getattr(l_2_c, 'location') else cond_expr_undefined("the inline if-expression on line 3 in 'findings/mixed_installs.md.j2' evaluated to false and no else section was defined.")))
            yield ')'
            yield str(('; ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 3 in 'findings/mixed_installs.md.j2' evaluated to false and no else section was defined.")))
        l_2_loop = l_2_c = missing
        yield '. '
    l_1_loop = l_1_d = missing
    yield "Whichever copy comes first on the path wins and the other's libraries get mixed in. Keep one installer per environment: in a conda environment use either `conda remove pytorch` or `pip uninstall torch` (then reinstall once), and remove the stray user-site or `PYTHONPATH` copy."
    if (t_2((undefined(name='cuda_majors') if l_0_cuda_majors is missing else l_0_cuda_majors)) > 1):
        pass
        yield ' Uninstall the '
        yield str(t_4(str_join(('nvidia-*-', environment.getitem((undefined(name='cuda_majors') if l_0_cuda_majors is missing else l_0_cuda_majors), 0), ))))
        yield ' packages that torch does not use (`pip list | grep nvidia`).'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=54'

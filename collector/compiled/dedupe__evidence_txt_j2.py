# Written by `python -m collector.compile_templates` from templates/dedupe/evidence.txt.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '88f16f85d4aebf1afcc5aaa535430e8d'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'dedupe/evidence.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_matches = resolve('matches')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_2 = environment.filters['truncate']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'truncate' found.")
    pass
    for l_1_m in (undefined(name='matches') if l_0_matches is missing else l_0_matches):
        _loop_vars = {}
        pass
        if (environment.getattr(l_1_m, 'kind') == 'error'):
            pass
            yield 'same error signature: '
            yield str(t_1(t_2(environment, environment.getattr(l_1_m, 'detail'), 120)))
            yield '\n'
        elif (environment.getattr(l_1_m, 'kind') == 'frames'):
            pass
            yield 'same failing code: '
            yield str(t_1(environment.getattr(l_1_m, 'detail')))
            yield '\n'
        elif (environment.getattr(l_1_m, 'kind') == 'finding'):
            pass
            yield 'same finding: '
            yield str(environment.getattr(l_1_m, 'detail'))
            yield '\n'
        elif (environment.getattr(l_1_m, 'kind') == 'archs'):
            pass
            yield 'same GPU arch ('
            yield str(environment.getattr(l_1_m, 'detail'))
            yield ')\n'
        elif (environment.getattr(l_1_m, 'kind') == 'torch'):
            pass
            yield 'same torch build ('
            yield str(environment.getattr(l_1_m, 'detail'))
            yield ')\n'
        elif (environment.getattr(l_1_m, 'kind') == 'cuda'):
            pass
            yield 'same CUDA ('
            yield str(environment.getattr(l_1_m, 'detail'))
            yield ')\n'
        elif (environment.getattr(l_1_m, 'kind') == 'driver'):
            pass
            yield 'same driver branch ('
            yield str(environment.getattr(l_1_m, 'detail'))
            yield ')\n'
        elif (environment.getattr(l_1_m, 'kind') == 'words'):
            pass
            yield 'similar wording (cosine '
            yield str(environment.getattr(l_1_m, 'detail'))
            yield ')\n'
    l_1_m = missing

blocks = {}
debug_info = '2=24&3=27&4=30&5=32&6=35&7=37&8=40&9=42&10=45&11=47&12=50&13=52&14=55&15=57&16=60&17=62&18=65'

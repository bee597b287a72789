# Written by `python -m collector.compile_templates` from templates/backfill.txt.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'fd0d01a65843d030869dd1834c08b96d'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'backfill.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_dry_run = resolve('dry_run')
    try:
        t_1 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    pass
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'unchanged'):
        pass
        yield str(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'repo'))
        yield ': nothing changed since the last backfill (GitHub answered 304; no request counted).\n'
    else:
        pass
        yield str(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'repo'))
        yield ': '
        yield str(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'loaded'))
        yield ' issue'
        yield str(('s' if (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'loaded') != 1) else cond_expr_undefined("the inline if-expression on line 5 in 'backfill.txt.j2' evaluated to false and no else section was defined.")))
        yield ' loaded into the duplicate index'
        yield str((str_join((' (resumed from ', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'resumed_from'), ')', )) if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'resumed_from') else cond_expr_undefined("the inline if-expression on line 5 in 'backfill.txt.j2' evaluated to false and no else section was defined.")))
        yield str((str_join((', ', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'skipped_pull_requests'), ' pull requests skipped', )) if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'skipped_pull_requests') else cond_expr_undefined("the inline if-expression on line 5 in 'backfill.txt.j2' evaluated to false and no else section was defined.")))
        yield '.\n'
        if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'triaged'):
            pass
            yield str(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'triaged'))
            yield ' open issue'
            yield str(('s' if (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'triaged') != 1) else cond_expr_undefined("the inline if-expression on line 7 in 'backfill.txt.j2' evaluated to false and no else section was defined.")))
            yield ' triaged'
            yield str((' (dry run: nothing written to GitHub)' if (undefined(name='dry_run') if l_0_dry_run is missing else l_0_dry_run) else cond_expr_undefined("the inline if-expression on line 7 in 'backfill.txt.j2' evaluated to false and no else section was defined.")))
            yield '.\n'
        if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'waited_seconds'):
            pass
            yield 'Waited '
            yield str(t_1('%.0f', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'waited_seconds')))
            yield " s for GitHub's rate limit.\n"

blocks = {}
debug_info = '2=19&3=21&5=25&6=34&7=36&9=42&10=45'

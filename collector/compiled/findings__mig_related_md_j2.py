# Written by `python -m collector.compile_templates` from templates/findings/mig_related.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = '59ef1db0114a5b14838fea471ccab358'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/mig_related.md.j2'

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
    l_0_gpus = resolve('gpus')
    l_0_instances = resolve('instances')
    l_0_seen = resolve('seen')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    pass
    if (undefined(name='gpus') if l_0_gpus is missing else l_0_gpus):
        pass
        yield 'MIG is enabled on '
        yield str(t_1(context.eval_ctx, (undefined(name='gpus') if l_0_gpus is missing else l_0_gpus), ', '))
        yield ' ('
        yield str((undefined(name='instances') if l_0_instances is missing else l_0_instances))
        yield ' instance'
        yield str(('s' if ((undefined(name='instances') if l_0_instances is missing else l_0_instances) != 1) else cond_expr_undefined("the inline if-expression on line 2 in 'findings/mig_related.md.j2' evaluated to false and no else section was defined.")))
        yield ')'
        if ((undefined(name='seen') if l_0_seen is missing else l_0_seen) == 0):
            pass
            yield ' and torch sees no device'
    else:
        pass
        yield 'The error comes from MIG partitioning'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield 'Under MIG a process sees only the MIG instances named in `CUDA_VISIBLE_DEVICES` (by `MIG-` UUID, see `nvidia-smi -L`), and at most one per process: NCCL and P2P do not work across instances. Select an instance with `export CUDA_VISIBLE_DEVICES=MIG-<uuid>`, or disable MIG (`sudo nvidia-smi -i <gpu> -mig 0`, then reset the GPU) for multi-GPU work.'

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=47'

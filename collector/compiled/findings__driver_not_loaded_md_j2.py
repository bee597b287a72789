# Written by `python -m collector.compile_templates` from templates/findings/driver_not_loaded.md.j2; do not edit.
# KEY: the template's source, the environment's settings and Jinja2's bytecode format (collector/templating.py).
KEY = 'c36dc01d02b6fce8e823a4129769afc5'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'findings/driver_not_loaded.md.j2'

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
    l_0_cause = resolve('cause')
    l_0_module = resolve('module')
    l_0_library = resolve('library')
    pass
    if ((undefined(name='cause') if l_0_cause is missing else l_0_cause) == 'mismatch'):
        pass
        yield 'The NVIDIA kernel module'
        yield str((str_join((' (', (undefined(name='module') if l_0_module is missing else l_0_module), ')', )) if (undefined(name='module') if l_0_module is missing else l_0_module) else cond_expr_undefined("the inline if-expression on line 2 in 'findings/driver_not_loaded.md.j2' evaluated to false and no else section was defined.")))
        yield ' and the driver libraries'
        yield str((str_join((' (', (undefined(name='library') if l_0_library is missing else l_0_library), ')', )) if ((undefined(name='library') if l_0_library is missing else l_0_library) and ((undefined(name='library') if l_0_library is missing else l_0_library) != (undefined(name='module') if l_0_module is missing else l_0_module))) else cond_expr_undefined("the inline if-expression on line 2 in 'findings/driver_not_loaded.md.j2' evaluated to false and no else section was defined.")))
        yield ' are different versions'
    elif ((undefined(name='cause') if l_0_cause is missing else l_0_cause) == 'nouveau'):
        pass
        yield "The open-source nouveau driver is loaded instead of NVIDIA's"
    elif ((undefined(name='cause') if l_0_cause is missing else l_0_cause) == 'not_loaded'):
        pass
        yield 'The NVIDIA kernel driver is not loaded'
    else:
        pass
        yield 'No NVIDIA driver is installed'

def block_fix(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_cause = resolve('cause')
    pass
    if ((undefined(name='cause') if l_0_cause is missing else l_0_cause) == 'mismatch'):
        pass
        yield 'The driver packages were upgraded (often by unattended-upgrades) but the old kernel module is still running ("Driver/library version mismatch"). Reboot, or unload and reload the modules (`sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia`). To stop it recurring: `sudo apt-mark hold` the driver packages.'
    elif ((undefined(name='cause') if l_0_cause is missing else l_0_cause) == 'nouveau'):
        pass
        yield 'Blacklist nouveau (`echo -e "blacklist nouveau\\noptions nouveau modeset=0" | sudo tee /etc/modprobe.d/blacklist-nouveau.conf`), rebuild the initramfs (`sudo update-initramfs -u` or `sudo dracut --force`), reboot, then install the NVIDIA driver.'
    elif ((undefined(name='cause') if l_0_cause is missing else l_0_cause) == 'not_loaded'):
        pass
        yield "Load it with `sudo modprobe nvidia` and read `dmesg | grep -i nvidia`: with Secure Boot on, the DKMS module must be signed (enroll the MOK key) or use the distribution's signed driver; after a kernel update, rebuild it (`sudo dkms autoinstall`)."
    else:
        pass
        yield "Install the NVIDIA driver for your GPU (your distribution's `nvidia-driver-<branch>` package or NVIDIA's installer), reboot, and check that `nvidia-smi` lists the GPU."

blocks = {'title': block_title, 'fix': block_fix}
debug_info = '2=11&3=12&2=14&3=42'

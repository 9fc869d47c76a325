"""Imported by moto_server's Python at start-up (its PYTHONPATH names this folder).

moto's EventBridge renders every event it routes to a target through
jsonpath_ng's `ext.parse`, once per field of the default input template
(eight), and that parser builds its PLY tables anew on every call: about
0.1 s of CPU each, so one routed event cost 0.8-2 s of moto's time, and a
stack routing hundreds of them (EC2 state changes, SSM command events) spent
minutes there. Parsed paths are immutable, so memoizing the parse changes no
result, only the time it takes.
"""

import functools

try:
    import jsonpath_ng.ext as _jsonpath_ext
except ImportError:  # a moto without EventBridge input templates: nothing to speed up
    pass
else:
    _jsonpath_ext.parse = functools.lru_cache(maxsize=1024)(_jsonpath_ext.parse)


# moto's SSM SendCommand adds to the instances it is given every instance its
# Targets filter matches, and an empty Targets filter matches every instance
# of the region: a command sent to one instance is stored as sent to all of
# them. AWS runs it on the instances named (SendCommand: InstanceIds or
# Targets). Each stored command then carries every instance id and one
# invocation per instance, so ListCommands, which the local SSM agent polls,
# grew with commands × instances and took moto's one process away from the
# rest of the stack. Patched when moto first loads its SSM models, so a moto
# that never serves SSM pays nothing at start-up.
_SSM_MODELS = "moto.ssm.models"


def _target_only_named_instances(models):
    matched_by_targets = models.Command._get_instance_ids_from_targets

    def instance_ids_from_targets(self):
        return matched_by_targets(self) if self.targets else []

    models.Command._get_instance_ids_from_targets = instance_ids_from_targets


class _PatchSsmModelsOnImport:
    """A meta-path finder that lets the real loader run, then patches the module."""

    def find_spec(self, name, path, target=None):
        if name != _SSM_MODELS:
            return None
        import importlib.util
        import sys

        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            _target_only_named_instances(module)

        spec.loader.exec_module = exec_module
        return spec


def _install_ssm_patch():
    import sys

    sys.meta_path.insert(0, _PatchSsmModelsOnImport())


_install_ssm_patch()

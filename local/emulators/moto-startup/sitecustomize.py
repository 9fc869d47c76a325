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
# rest of the stack.
def _target_only_named_instances(models):
    matched_by_targets = models.Command._get_instance_ids_from_targets

    def instance_ids_from_targets(self):
        return matched_by_targets(self) if self.targets else []

    models.Command._get_instance_ids_from_targets = instance_ids_from_targets


# moto's ListCommands ignores its Filters and returns every command ever sent,
# each with its whole script: at 100 commands one call cost moto about 0.25 s
# of CPU, and the local SSM agent asks every region four times a second, so
# a stack that had run a hundred tasks spent all of moto's one process
# listing them. AWS applies the filters; the ones applied here are those of
# AWS's CommandFilter that name a command's own fields (InvokedAfter and
# InvokedBefore, inclusive, DocumentName, Status). ExecutionStage is left
# unapplied, as moto left every filter.
def _apply_list_commands_filters(responses):
    from datetime import datetime, timezone

    listed_unfiltered = responses.SimpleSystemManagerResponse.list_commands

    def instant(value):
        parsed = datetime.fromisoformat(value)
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(timezone.utc).replace(tzinfo=None)
        return parsed

    tests = {
        "InvokedAfter": lambda command, value: command.requested_date_time >= instant(value),
        "InvokedBefore": lambda command, value: command.requested_date_time <= instant(value),
        "DocumentName": lambda command, value: command.document_name == value,
        "Status": lambda command, value: command.status == value,
    }

    def list_commands(self):
        applied = [f for f in self._get_param("Filters") or [] if f.get("key") in tests]
        if not applied:
            return listed_unfiltered(self)
        commands = self.ssm_backend.list_commands(self._get_param("CommandId"), self._get_param("InstanceId"))
        kept = [c for c in commands if all(tests[f["key"]](c, f.get("value", "")) for f in applied)]
        return responses.ActionResult({"Commands": [c.response_object() for c in kept]})

    responses.SimpleSystemManagerResponse.list_commands = list_commands


# Each patch runs when moto first loads its module, so a moto that never
# serves SSM pays nothing at start-up.
_PATCHES = {
    "moto.ssm.models": _target_only_named_instances,
    "moto.ssm.responses": _apply_list_commands_filters,
}


class _PatchOnImport:
    """A meta-path finder that lets the real loader run, then patches the module."""

    def find_spec(self, name, path, target=None):
        patch = _PATCHES.get(name)
        if patch is None:
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
            patch(module)

        spec.loader.exec_module = exec_module
        return spec


def _install_patches():
    import sys

    sys.meta_path.insert(0, _PatchOnImport())


_install_patches()

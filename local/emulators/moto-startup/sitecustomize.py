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

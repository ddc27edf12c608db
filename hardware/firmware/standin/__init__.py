"""CPython stand-ins for MicroPython's built-in modules, for testing the firmware on the host.

Put this folder on `sys.path` (the tests do) and `import machine` finds `machine.py` here.
"""

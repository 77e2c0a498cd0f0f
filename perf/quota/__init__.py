"""A slower laptop to measure on: the served office (and its PostgreSQL backends) in a
cgroup limited to ``--cpu-quota`` CPUs (``cgroups``, ``postgres``)."""

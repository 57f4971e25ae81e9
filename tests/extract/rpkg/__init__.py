# A package written for tirx-verify's extraction tests (not from any kernel repository): tile
# tasks in rpkg/tiles whose `run` arguments come from the package's driver (driver.py, over the
# wrapper base.py) through the hops of the megakernel's moe.py / utils/base.py (run_args.py).

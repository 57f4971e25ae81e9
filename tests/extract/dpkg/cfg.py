# The wrapper's configuration dictionary (as the megakernel's utils/config.py holds one).
CONFIG = {"NAME": "test", "BLK_N": 64, "ACC": 64}

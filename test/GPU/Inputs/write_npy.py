# write_npy.py PATH DTYPE VALUE...: a 1-D .npy through gpu_check.py's writer.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "scripts"))
import gpu_check  # noqa: E402

kind = sys.argv[2]
values = [float(v) if kind.startswith("f") else int(v) for v in sys.argv[3:]]
gpu_check.write_npy(sys.argv[1], "<" + kind, values)

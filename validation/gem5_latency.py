# The reference gem5 configuration of the EDAN paper's validation machine ("EDAN: Towards Understanding
# Memory Parallelism and Latency Sensitivity in HPC", Shen et al., ICS'25: gem5 v22.1, syscall emulation,
# a 1 GHz RiscvO3CPU with gem5's defaults, L1i 16 kB 2-way, L1d 64 kB 2-way, L2 256 kB 8-way, a SimpleMemory
# whose latency is swept, 16 GB/s). Provenance: the stand-alone script the project was given with the paper
# to reproduce its gem5 set-up; carried here unchanged below this header, so that validation/ needs nothing
# outside the repository. validation/gem5_machine.py builds the same system from machines/gem5-validation.ini
# (one documented difference, the bandwidth unit: docs/accuracy.md); validation/config_diff.py compares the
# two systems' config.ini key by key.
#
# gem5 (v22.1) syscall-emulation run of one RISC-V binary with a given DRAM latency.
# Mirrors the EDAN paper's validation set-up: 1 GHz out-of-order RISC-V core, 16 kB L1i,
# 64 kB L1d, 256 kB L2, a memory whose latency is swept.
#   gem5.opt gem5_latency.py --latency 50 --cpu o3 -- BINARY [ARGS...]
import argparse
import m5
from m5.objects import *

ap = argparse.ArgumentParser()
ap.add_argument("--latency", type=float, default=50.0, help="memory latency in ns")
ap.add_argument("--cpu", choices=["o3", "timing"], default="o3")
ap.add_argument("cmd", nargs=argparse.REMAINDER)
a = ap.parse_args()
cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd


class L1I(Cache):
    size = "16kB"; assoc = 2
    tag_latency = data_latency = response_latency = 2
    mshrs = 4; tgts_per_mshr = 20


class L1D(Cache):
    size = "64kB"; assoc = 2
    tag_latency = data_latency = response_latency = 2
    mshrs = 16; tgts_per_mshr = 20


class L2(Cache):
    size = "256kB"; assoc = 8
    tag_latency = data_latency = response_latency = 12
    mshrs = 32; tgts_per_mshr = 12


system = System()
system.clk_domain = SrcClockDomain(clock="1GHz", voltage_domain=VoltageDomain())
system.mem_mode = "timing"
system.mem_ranges = [AddrRange("4GB")]
system.cpu = RiscvO3CPU() if a.cpu == "o3" else RiscvTimingSimpleCPU()
system.membus = SystemXBar()
system.cpu.icache = L1I()
system.cpu.dcache = L1D()
system.cpu.icache.cpu_side = system.cpu.icache_port
system.cpu.dcache.cpu_side = system.cpu.dcache_port
system.l2bus = L2XBar()
system.cpu.icache.mem_side = system.l2bus.cpu_side_ports
system.cpu.dcache.mem_side = system.l2bus.cpu_side_ports
system.l2cache = L2()
system.l2cache.cpu_side = system.l2bus.mem_side_ports
system.l2cache.mem_side = system.membus.cpu_side_ports
system.cpu.createInterruptController()
system.mem_ctrl = SimpleMemory(range=system.mem_ranges[0],
                               latency="%gns" % a.latency, bandwidth="16GB/s")
system.mem_ctrl.port = system.membus.mem_side_ports
system.system_port = system.membus.cpu_side_ports
system.workload = SEWorkload.init_compatible(cmd[0])
process = Process()
process.cmd = cmd
system.cpu.workload = process
system.cpu.createThreads()
root = Root(full_system=False, system=system)
m5.instantiate()
ev = m5.simulate()
print("EXIT %s ticks=%d" % (ev.getCause(), m5.curTick()))

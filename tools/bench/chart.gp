# SPDX-License-Identifier: GPL-2.0
# bench.png from chart.jq's data: gnuplot -e "data='F'; out='F.png'" chart.gp
# Bars are medians, whiskers the min-max over the repetitions.

set terminal pngcairo size 1200,800 font "sans,10"
set output out
set multiplot layout 2,2 title "bpfkit vs libbpf-tools vs bpftrace (median; whiskers: min-max)"
set style fill solid 0.7 border -1
set boxwidth 0.6
set grid ytics
set xtics nomirror scale 0
set ytics nomirror
set border 3
set offsets 0.5, 0.5, graph 0.1, 0
unset key

# bars INDEX COLOUR: one panel's bars, whiskers and median labels.
bars(i) = sprintf("plot data index %d using 0:2:xtic(1) with boxes lc rgb '%s', " . \
	"'' index %d using 0:2:3:4 with yerrorbars lc rgb 'black' pt 7 ps 0.4, " . \
	"'' index %d using 0:4:(sprintf('%%.0f', $2)) with labels offset 0,0.8", \
	i, word("#4477aa #ee6677 #228833 #ccbb44", i + 1), i, i)

set title "Event delivery: CPU ns per traced getppid (log scale)"
set logscale y
set yrange [100:*]
eval bars(0)

unset logscale y
set yrange [0:*]
set title "Startup: spawn to first exec event (ms)"
eval bars(1)

set title "Exec storm: execsnoop's own CPU ms per 1000 execs"
eval bars(2)

set title "Syscall storm: CPU ns per getppid under each syscount"
eval bars(3)

unset multiplot

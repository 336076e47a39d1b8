# plots/validation-threads.gp - rendered by scripts/validate-6.18 from
# plots/data/validation-threads.dat (run from the repository's top):
# data bios/MiB against fio threads on Linux 6.18 (btrfs on a direct-I/O loop
# device, bs=32k, fadvise_hint=1), real against pcsim, one panel per bdi
# read_ahead_kb.  Real: median of the repeats, bars min..max (idle machine;
# the shared captures; the captures on a loaded machine; the dec04 session;
# the dec06 host, faster than the one the model was fitted on);
# pcsim: median over seeds, bars min..max (the shipped scenario; dashed, the
# dec06 host's own scenario, docs/notebook/hosts/dec06-handmade.ini).
set terminal pngcairo size 1200,560 font 'DejaVu Sans,11' noenhanced
set output 'plots/validation-threads.png'
set datafile missing '-'
set logscale x 2
set xrange [0.8:11.5]
set xtics ('1' 1, '2' 2, '4' 4, '8' 8)
set xlabel 'fio threads (numjobs, one shared file)'
set ylabel 'data bios per MiB'
set key top left Left reverse samplen 2
set grid ytics
set multiplot layout 1,2 title 'Linux 6.18 against pcsim (workloads/linux-6.18-btrfs.ini; dashed: docs/notebook/hosts/dec06-handmade.ini on the dec06 host): bios per MiB against threads'
do for [b = 0:1] {
  set yrange [0:(b == 0 ? 8.5 : 1.3)]
  set title (b == 0 ? 'bdi read_ahead_kb 128 (window 256 KiB)' : 'bdi read_ahead_kb 4096 (window 8 MiB)')
  plot 'plots/data/validation-threads.dat' index b using 1:2:3:4 with yerrorlines lw 2 pt 7 lc rgb '#202020' title 'real, idle machine (median, min..max)', \
       '' index b using ($1*1.06):8:9:10 with yerrorbars pt 6 ps 1.3 lc rgb '#808080' title 'real (shared captures)', \
       '' index b using ($1*1.12):11:12:13 with yerrorbars pt 4 ps 1.1 lc rgb '#3060b0' title 'real, loaded machine', \
       '' index b using ($1*1.18):14:15:16 with yerrorbars pt 8 ps 1.2 lc rgb '#208040' title 'real, dec04 session', \
       '' index b using ($1*1.24):17:18:19 with yerrorbars pt 12 ps 1.2 lc rgb '#a060c0' title 'real, dec06 host', \
       '' index b using ($1*1.30):20:21:22 with yerrorlines lw 1 dt 2 pt 13 ps 1.0 lc rgb '#a060c0' title 'pcsim, dec06 host (docs/notebook/hosts/dec06-handmade.ini)', \
       '' index b using ($1*0.94):5:6:7 with yerrorlines lw 2 pt 5 lc rgb '#c03020' title 'pcsim (median, min..max over seeds)'
}
unset multiplot

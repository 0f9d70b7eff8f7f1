name=$1; prog=$2; shift 2
"$@" > $OUT/$name.log 2>&1 &
sleep 20
for p in $(pgrep -x $prog | head -2); do
  echo "=== pid $p" >> $OUT/$name.stacks
  timeout 40 cuda-gdb -p $p -batch -ex "set pagination off" -ex "thread apply all bt 30" >> $OUT/$name.stacks 2>&1
done
pkill -x $prog; pkill -x mpiexec; pkill -x hydra_pmi_proxy; sleep 1

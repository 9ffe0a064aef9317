# expect: 1 MaxHeap
# Each string is 11 MB, far within MaxValueSize; a thousand of them held at
# once are 11 GB. The live heap passes the memory budget (--max-memory:
# under the drill's 1 GB address-space cap, an eighth of it) long before.
$s = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
$s2 = "${s}${s}${s}${s}${s}${s}${s}${s}${s}${s}"
$s3 = "${s2}${s2}${s2}${s2}${s2}${s2}${s2}${s2}${s2}${s2}"
$s4 = "${s3}${s3}${s3}${s3}${s3}${s3}${s3}${s3}${s3}${s3}"
$s5 = "${s4}${s4}${s4}${s4}${s4}${s4}${s4}${s4}${s4}${s4}"
$s6 = "${s5}${s5}${s5}${s5}${s5}${s5}${s5}${s5}${s5}${s5}"
$a = Integer[1, 1000].map |$i| { "${i}${s6}" }
notify { 'n': message => length($a) }

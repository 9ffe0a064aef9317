class present_class { }
include present_class
$v = 'set'
notify { 'existing': }
$r1 = defined('$v')
$r2 = defined('$nope')
$r3 = defined('notify')
$r4 = defined('nosuchtype')
$r5 = defined('present_class')
$r6 = defined(Class['present_class'])
$r7 = defined(Notify['existing'])
$r8 = defined(Notify['missing'])
notify { "r1=${r1} r2=${r2} r3=${r3} r4=${r4} r5=${r5} r6=${r6} r7=${r7} r8=${r8}": }

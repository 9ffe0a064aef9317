# expect: 1 regexp match timeout
# A class parameter's type check, through a type alias of a Pattern.
type Bang = Pattern[/(a+)+\1$|!/]
class c(Variant[Integer, Bang] $x) { notify { "x=${x}": } }
class { 'c': x => 'aaaaaaaaaaaaaaaaaaaaaaaa!' }

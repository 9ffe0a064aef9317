class sv {
  sv_set3('inclass', 'c')
  notify { "class: ${inclass} [${::inclass}] ${sv_read3('inclass')}": }
  sv::set4('four', 4)
  notify { "four: ${four} [${::four}]": }
}
include sv
sv_set3('attop', 't')
notify { "top: ${attop} ${::fromtop} ${::fromtop4}": }

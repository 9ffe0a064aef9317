$top = 'T'
notify { 'undef-args':
  message => inline_epp('<%- | $a = 5, $c | -%>a=<%= $a %> c=<%= $c %>', { 'a' => undef, 'b' => undef, 'c' => undef }),
}
define d($content = 'C') {
  $local = 'L'
  notify { "${title}-1": message => inline_epp('<%= $content %>/<%= $local %>/<%= $title %>/<%= $top %>') }
  notify { "${title}-2": message => inline_epp('<%= $content %>/<%= $local %>/<%= $x %>/<%= $top %>', { 'x' => 1 }) }
  notify { "${title}-3": message => inline_epp('<%- | $x = 2 | -%><%= $content %>/<%= $local %>/<%= $x %>/<%= $top %>') }
  notify { "${title}-4": message => epp('m/a.epp', { 'x' => 1 }) }
  notify { "${title}-5": message => epp('m/b.epp') }
}
d { 'x': }

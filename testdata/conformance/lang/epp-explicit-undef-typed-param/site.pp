$e = inline_epp('<%- |String $a| -%>a=<%= $a %>', { 'a' => undef })
notify { "epp=[${e}]": }

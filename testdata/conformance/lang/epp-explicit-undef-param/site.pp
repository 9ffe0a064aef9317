$e = inline_epp('<%- |$a, Optional[String] $b, $c = 1| -%>a=<%= $a %> b=<%= $b %> c=<%= $c %>', { 'a' => undef, 'b' => undef, 'c' => undef })
notify { "epp=[${e}]": }

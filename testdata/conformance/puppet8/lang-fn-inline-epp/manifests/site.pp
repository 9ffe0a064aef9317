$t = @(END)
<%- | String $who, Array $items = [] | -%>
Hi <%= $who %>
<% $items.each |$i| { -%>
* <%= $i %>
<% } -%>
END
notify { 'epp': message => inline_epp($t, {'who' => 'ops', 'items' => ['a', 'b']}) }

$topvar = 'tv'
class c($ssl_cert = 'cert', $ssl_key = undef, $auth_basic = undef) {
  $local = 1
  $e = inline_template(@(ERB))
    <%- @assigned = nil -%>
    ssl=<%= instance_variables.any? { |iv| iv.to_s.include? 'ssl_' } %>
    auth=<%= instance_variables.any? { |iv| iv.to_s.include? 'auth_basic' } %>
    scope=<%= instance_variables.include?(:@__scope__) %>
    first=<%= instance_variables.first.inspect %> <%= instance_variables.first.class %>
    has=<%= [:@local, :@topvar, :@ssl_cert, :@ssl_key, :@facts, :@title, :@name, :@assigned, :@nope].map { |v| instance_variables.include?(v) }.inspect %>
    get=<%= instance_variable_get('@ssl_cert') %> <%= instance_variable_get('@local').inspect %> <%= instance_variable_get('@ssl_key').inspect %> <%= instance_variable_get('@nope').inspect %>
    defined=<%= defined?(@ssl_cert).inspect %> <%= defined?(@ssl_key).inspect %> <%= defined?(@assigned).inspect %> <%= defined?(@nope).inspect %>
    ivdefined=<%= instance_variable_defined?('@topvar') %> <%= instance_variable_defined?('@auth_basic') %>
    | ERB
  notify { 'out': message => $e }
}
include c

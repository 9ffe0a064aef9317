class site (Array $list, Hash $h) {
  $x = 'hello'
  $y = 'local y'
  $out = template('site/report.erb')
  $out.split("\n").each |$line| { notify { "t: ${line}": } }
  $inline = inline_template("<%- p = Struct.new(:a, :b).new(@x, @list) -%><%= p.a %>/<%= p.b.sum %>/<%= scope['top'] %>")
  notify { "inline: ${inline}": }
}

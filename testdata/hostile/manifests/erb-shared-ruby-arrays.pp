# expect: 1 MaxStringSize
# args: --max-template-size 1048576
# Ruby arrays shared in a template: inspect stops at the string limit.
notify { inline_template("<% a = [1]; 30.times { a = [a, a, a] } %><%= a.inspect %>"): }

$data = {'a' => {'b' => [{'c' => 'found'}]}}
$x = dig($data, 'a', 'b', 0, 'c')
$y = $data.dig('a', 'missing', 'c')
notify { "x=${x} y=[${y}]": }

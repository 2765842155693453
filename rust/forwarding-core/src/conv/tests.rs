use super::*;

#[test]
fn the_one_call_form_takes_relu_only() {
    let act = |mode| Activation { mode, alpha: 6.0, beta: 0.0 };
    assert!(one_call_activation(&act(miopen_activation::RELU)).is_ok());
    for mode in [miopen_activation::CLIPPEDRELU, miopen_activation::CLAMP, miopen_activation::PASTHRU] {
        let why = one_call_activation(&act(mode)).unwrap_err().0;
        assert!(why.contains("takes RELU only: MIOpen decides"), "{why}");
    }
}
